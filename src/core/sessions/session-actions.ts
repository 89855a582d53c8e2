import { HttpError } from '../errors/http-error.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import type { StoreState } from '../state/state-store.js';
import type { Session } from './session.js';

/**
 * Loads a known scenario into the session's store. Shared by the admin API
 * and the in-process API, so both answer the same. An unknown name is a
 * `404 scenario_not_found`; a scenario larger than the store may hold is a
 * `507 store_full` and the store keeps what it had.
 */
export async function switchScenario(
  session: Session,
  catalogue: ScenarioCatalogue,
  name: string,
): Promise<StoreState> {
  if (!catalogue.has(name)) {
    throw new HttpError('scenario_not_found', `no scenario is named '${name}' (scenarios: ${catalogue.names()})`);
  }
  session.store.load(await catalogue.load(name));
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
