import { HttpError } from '../errors/http-error.js';
import { FixtureError } from '../scenarios/fixture.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import type { StoreState } from '../state/state-store.js';
import type { Session } from './session.js';

/**
 * Loads a known scenario into the session's store. Shared by the admin API
 * and the in-process API, so both answer the same. An unknown name is a
 * `404 scenario_not_found`; one of the kit's scenarios that cannot serve the
 * document (its items name no collection of it) a `400 invalid_scenario`
 * naming what it lacks; a scenario larger than the store may hold is a `507
 * store_full`. The store keeps what it had.
 */
export async function switchScenario(
  session: Session,
  catalogue: ScenarioCatalogue,
  name: string,
): Promise<StoreState> {
  if (!catalogue.has(name)) {
    throw new HttpError('scenario_not_found', `no scenario is named '${name}' (scenarios: ${catalogue.names()})`);
  }
  let scenario;
  try {
    scenario = await catalogue.load(name);
  } catch (error) {
    if (error instanceof FixtureError) throw new HttpError('invalid_scenario', error.message);
    throw error;
  }
  session.store.load(scenario);
  return session.state;
}

/**
 * Takes the session back to its start (see `Session.reset`): the scenario it
 * was made with and its pets, no faults, the configured latency, an empty
 * journal. Shared by `POST /__admin/reset` and `mock.reset()`.
 */
export function resetSession(session: Session): StoreState {
  return session.reset();
}
