import type { HandlerTable } from '../handlers/handler-types.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import type { Session } from '../sessions/session.js';
import { resetSession, switchScenario } from '../sessions/session-actions.js';

/** What the admin operations work with: the caller's session and the mock's scenarios. */
export interface AdminContext {
  session: Session;
  scenarios: ScenarioCatalogue;
}

/** The admin operations, by operationId (see admin-document.ts). */
export const adminHandlers: HandlerTable<AdminContext> = {
  listScenarios: (_request, { session, scenarios }) => ({
    status: 200,
    body: {
      current: session.store.scenarioName,
      scenarios: scenarios.list().map(({ name, description }) => ({ name, description })),
    },
  }),
  switchScenario: async (request, { session, scenarios }) => ({
    status: 200,
    body: await switchScenario(session, scenarios, (request.body as { name: string }).name),
  }),
  resetStore: (_request, { session }) => ({ status: 200, body: resetSession(session) }),
  listRequests: (_request, { session }) => ({
    status: 200,
    body: { capacity: session.journal.capacity, dropped: session.journal.dropped, requests: session.journal.list() },
  }),
  clearRequests: (_request, { session }) => ({ status: 200, body: { cleared: session.journal.clear() } }),
};
