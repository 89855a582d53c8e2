import { HttpError } from '../errors/http-error.js';
import type { HandlerTable } from '../handlers/handler-types.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { Latency } from '../pipeline/apply-latency.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import type { FaultRequest } from '../sessions/fault-plan.js';
import type { Session } from '../sessions/session.js';
import { latestMoment, momentOf } from '../sessions/moment-of.js';
import { resetSession, switchScenario } from '../sessions/session-actions.js';
import { storeFields, storeFilters } from './store-filters.js';
import type { SessionRegistry } from '../sessions/session-registry.js';

/** What the admin operations work with: the caller's session, every session, the scenarios, the API's document. */
export interface AdminContext {
  session: Session;
  sessions: SessionRegistry;
  scenarios: ScenarioCatalogue;
  api: CompiledDocument;
  /** Set when the mock runs as the validating proxy. */
  proxyReport: (() => unknown) | undefined;
  /** The mock's clock (ms since the epoch); a session's time runs at an offset from it. */
  clock: () => number;
}

/**
 * A session's clock as the admin API shows it. A clock set close to the end
 * of year 9999 runs on past it; it is shown as that end, so that `now` stays
 * an RFC 3339 date-time the admin API accepts back (issue 36: a clock beyond
 * it once made every read of it a 500).
 */
function clockOf(session: Session, clock: () => number) {
  return { now: new Date(Math.min(session.now(clock), latestMoment)).toISOString(), offsetMs: session.clockOffset };
}

/** A fault request that makes sense: one of status and fault, and an operation the API has. */
export function checkFault(request: FaultRequest, api: CompiledDocument): FaultRequest {
  if ((request.status === undefined) === (request.fault === undefined)) {
    throw new HttpError(
      'invalid_fault',
      'a fault needs exactly one of status (an HTTP error, 400-599) and fault (connection_reset, empty_response, malformed_response or timeout)',
    );
  }
  if (request.operationId !== undefined && !api.byId.has(request.operationId)) {
    throw new HttpError(
      'invalid_fault',
      `no operation of the API is '${request.operationId}' (operations: ${[...api.byId.keys()].join(', ')})`,
    );
  }
  return request;
}

/** The admin operations, by operationId (see admin-document.ts). */
export const adminHandlers: HandlerTable<AdminContext> = {
  // While the state file cannot be written, health is the same 503 Error creates get, so that a probe that reads
  // only the status (Docker, Kubernetes, wait-on, an uptime monitor) sees that changes are being refused. It says
  // what the server is, so that the dashboard asks for the proxy's violations only from a proxy.
  health: (_request, { sessions, proxyReport }) => {
    const problem = sessions.defaultSession.store.writeProblem;
    if (problem) throw problem;
    // Issue 27: the journals' shared bound, and how much of it they hold.
    const { budget } = sessions.defaultSession.journal;
    return {
      status: 200,
      body: {
        status: 'ok',
        role: proxyReport ? 'proxy' : 'mock',
        journal: { bytes: budget.usedBytes, maxBytes: budget.maxBytes, entries: budget.entries },
      },
    };
  },
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
    // At most the budget's maxReadBytes: the newest entries that fit, and how many older ones were left out.
    body: { capacity: session.journal.capacity, dropped: session.journal.dropped, ...session.journal.read() },
  }),
  clearRequests: (_request, { session }) => ({ status: 200, body: { cleared: session.journal.clear() } }),
  listSessions: (_request, { sessions }) => ({
    status: 200,
    body: {
      max: sessions.max,
      sessions: sessions.list().map((each) => ({
        name: each.name,
        scenario: each.store.scenarioName,
        ...each.store.counts(),
        copied: each.store.isCopied,
        requests: each.journal.size,
        faults: each.faults.size,
        ...(each.latency ? { latency: each.latency } : {}),
      })),
    },
  }),
  dropSession: (request, { sessions }) => {
    const name = request.path.name as string;
    if (!sessions.drop(name)) throw new HttpError('session_not_found', `no session is named '${name}'`);
    return { status: 200, body: { dropped: name } };
  },
  listFaults: (_request, { session }) => ({ status: 200, body: { faults: session.faults.list() } }),
  addFault: (request, { session, api }) => ({
    status: 200,
    body: session.faults.add(checkFault(request.body as FaultRequest, api)),
  }),
  clearFaults: (_request, { session }) => ({ status: 200, body: { cleared: session.faults.clear() } }),
  listViolations: (_request, { proxyReport }) => {
    if (!proxyReport) {
      throw new HttpError(
        'not_a_proxy',
        'violations are found by the validating proxy: start petstore-mock proxy --upstream URL',
      );
    }
    return { status: 200, body: proxyReport() };
  },
  getClock: (_request, { session, clock }) => ({ status: 200, body: clockOf(session, clock) }),
  setClock: (request, { session, clock }) => {
    // Read (and refused) before anything changes.
    const moment = momentOf((request.body as { now: string }).now, 'now');
    session.clockOffset = moment - clock();
    return { status: 200, body: clockOf(session, clock) };
  },
  resetClock: (_request, { session, clock }) => {
    session.clockOffset = 0;
    return { status: 200, body: clockOf(session, clock) };
  },
  // The dashboard's view of a session's data: read straight from the store, so that it uses no fault, goes into
  // no journal (an admin GET) and changes nothing it observes.
  readStore: (request, { session, api }) => {
    const { limit = 100, ...chosen } = request.query as { limit?: number } & Record<string, unknown>;
    const { store } = session;
    return {
      status: 200,
      body: {
        scenario: store.scenarioName,
        size: store.size,
        fields: storeFields(api),
        filters: storeFilters(api).map(({ name, values }) => ({ name, values })),
        items: store.list({ limit, ...chosen } as Parameters<typeof store.list>[0]),
      },
    };
  },
  getLatency: (_request, { session }) => ({ status: 200, body: session.latency ?? { min: 0, max: 0 } }),
  setLatency: (request, { session }) => {
    const latency = request.body as Latency;
    if (latency.min > latency.max) {
      throw new HttpError('invalid_body', `latency min (${latency.min}) must not be above max (${latency.max})`);
    }
    session.latency = latency.max > 0 ? latency : undefined;
    return { status: 200, body: latency };
  },
};
