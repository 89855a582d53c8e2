import { HttpError } from '../errors/http-error.js';
import type { HandlerTable } from '../handlers/handler-types.js';
import type { RequestJournal } from '../journal/request-journal.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import { StoreFullError, type PetStore } from '../store/pet-store.js';

export interface AdminContext {
  store: PetStore;
  scenarios: ScenarioCatalogue;
  journal: RequestJournal;
}

const storeState = (store: PetStore) => ({ scenario: store.scenarioName, pets: store.size });

/** The admin operations, by operationId (see admin-document.ts). */
export const adminHandlers: HandlerTable<AdminContext> = {
  listScenarios: (_request, { store, scenarios }) => ({
    status: 200,
    body: {
      current: store.scenarioName,
      scenarios: scenarios.list().map(({ name, description }) => ({ name, description })),
    },
  }),
  switchScenario: (request, { store, scenarios }) => {
    const { name } = request.body as { name: string };
    if (!scenarios.has(name)) {
      const known = scenarios.list().map((scenario) => scenario.name);
      throw new HttpError('scenario_not_found', `no scenario is named '${name}' (scenarios: ${known.join(', ')})`);
    }
    const scenario = scenarios.load(name);
    try {
      store.load(scenario);
    } catch (error) {
      // The store refuses a scenario it cannot hold, and keeps what it had.
      if (!(error instanceof StoreFullError)) throw error;
      throw new HttpError(
        'store_full',
        `scenario '${name}' holds ${scenario.pets.length} pets, more than the store's maximum of ${error.maxPets}; restart with a larger --max-pets`,
      );
    }
    return { status: 200, body: storeState(store) };
  },
  resetStore: (_request, { store }) => {
    store.reset();
    return { status: 200, body: storeState(store) };
  },
  listRequests: (_request, { journal }) => ({
    status: 200,
    body: { capacity: journal.capacity, dropped: journal.dropped, requests: journal.list() },
  }),
  clearRequests: (_request, { journal }) => ({ status: 200, body: { cleared: journal.clear() } }),
};
