import { HttpError } from '../errors/http-error.js';
import type { HandlerTable } from '../handlers/handler-types.js';
import { describeApi, type Resource } from '../model/describe-api.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import { momentOf } from '../state/moment-of.js';
import type { FaultRequest, Latency, SessionRef, StateStore } from '../state/state-store.js';
import { resourceFilters, storeFields } from './store-filters.js';

/** What the admin operations work with: the caller's session, the shared state, the scenarios, the API's document. */
export interface AdminContext {
  /** The caller's session, as the state settled it for this request. */
  session: SessionRef;
  state: StateStore;
  scenarios: ScenarioCatalogue;
  api: CompiledDocument;
  /** Set when the mock runs as the validating proxy. */
  proxyReport: (() => unknown) | undefined;
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

/**
 * The collection `GET /__admin/store` reads: the one `?resource=` names, or,
 * left out, the document's only collection. A document of several
 * collections has no default one: the request must name it.
 */
function storedResource(api: CompiledDocument, named: string | undefined): Resource {
  const { resources } = describeApi(api);
  const names = resources.map((resource) => resource.name).join(', ');
  if (named === undefined) {
    const [only, ...others] = resources;
    if (only && others.length === 0) return only;
    throw new HttpError(
      'invalid_parameter',
      `name the collection to read with ?resource= (${names}): the document has ${resources.length === 0 ? 'none' : 'several'}`,
      { details: [{ location: 'query', field: 'resource', message: `is required: one of ${names}` }] },
    );
  }
  // The admin document's enum already refused any other name.
  const found = resources.find((resource) => resource.name === named);
  if (!found) throw new HttpError('invalid_parameter', `no collection of the document is '${named}' (${names})`);
  return found;
}

/** The admin operations, by operationId (see admin-api.yaml). Every change goes through the state port. */
export const adminHandlers: HandlerTable<AdminContext> = {
  // While the state file cannot be written, health is the same 503 Error creates get, so that a probe that reads
  // only the status (Docker, Kubernetes, wait-on, an uptime monitor) sees that changes are being refused. It says
  // what the server is, so that the dashboard asks for the proxy's violations only from a proxy.
  health: async (_request, { state, proxyReport }) => {
    // A shared store that does not answer is the same 503, whose message says why and since when; which
    // server it is stays out of this keyless answer (the banner and the log name it).
    const { problem, journal } = await state.health();
    if (problem) throw problem;
    // Issue 27: the journals' shared bound, and how much of it they hold.
    return { status: 200, body: { status: 'ok', role: proxyReport ? 'proxy' : 'mock', journal } };
  },
  listScenarios: async (_request, { session, state, scenarios }) => ({
    status: 200,
    body: {
      current: (await state.storeState(session)).scenario,
      scenarios: scenarios.list().map(({ name, description }) => ({ name, description })),
    },
  }),
  switchScenario: async (request, { session, state }) => ({
    status: 200,
    body: await state.switchScenario(session, (request.body as { name: string }).name),
  }),
  resetStore: async (_request, { session, state }) => ({ status: 200, body: await state.reset(session) }),
  listRequests: async (_request, { session, state }) => {
    // At most the budget's maxReadBytes: the newest entries that fit, and how many older ones were left out.
    const { capacity, dropped, requests, omitted, maxReadBytes } = await state.journal(session);
    return { status: 200, body: { capacity, dropped, requests, omitted, maxReadBytes } };
  },
  clearRequests: async (_request, { session, state }) => ({
    status: 200,
    body: { cleared: await state.clearJournal(session) },
  }),
  listSessions: async (_request, { state, api }) => {
    const { max, sessions } = await state.sessions();
    return {
      status: 200,
      body: {
        max,
        collections: describeApi(api).resources.map((resource) => resource.name),
        sessions: sessions.map((each) => ({
          name: each.name,
          scenario: each.scenario,
          ...each.counts,
          copied: each.copied,
          requests: each.requests,
          faults: each.faults,
          ...(each.latency ? { latency: each.latency } : {}),
        })),
      },
    };
  },
  dropSession: async (request, { state }) => {
    const name = request.path.name as string;
    if (!(await state.dropSession(name))) throw new HttpError('session_not_found', `no session is named '${name}'`);
    return { status: 200, body: { dropped: name } };
  },
  listFaults: async (_request, { session, state }) => ({ status: 200, body: { faults: await state.faults(session) } }),
  addFault: async (request, { session, state, api }) => ({
    status: 200,
    body: await state.addFault(session, checkFault(request.body as FaultRequest, api), 'POST /__admin/faults'),
  }),
  clearFaults: async (_request, { session, state }) => ({
    status: 200,
    body: { cleared: await state.clearFaults(session) },
  }),
  listViolations: (_request, { proxyReport }) => {
    if (!proxyReport) {
      throw new HttpError(
        'not_a_proxy',
        'violations are found by the validating proxy: start petstore-mock proxy --upstream URL',
      );
    }
    return { status: 200, body: proxyReport() };
  },
  getClock: async (_request, { session, state }) => ({ status: 200, body: await state.clock(session) }),
  setClock: async (request, { session, state }) => {
    // Read (and refused) before anything changes.
    const moment = momentOf((request.body as { now: string }).now, 'now');
    return { status: 200, body: await state.setClock(session, moment) };
  },
  resetClock: async (_request, { session, state }) => ({
    status: 200,
    body: await state.setClock(session, undefined),
  }),
  // The dashboard's view of a session's data, one collection at a time: read straight from the store, so that it
  // uses no fault, goes into no journal (an admin GET) and changes nothing it observes.
  readStore: async (request, { session, state, api }) => {
    const {
      limit = 100,
      resource: named,
      ...chosen
    } = request.query as {
      limit?: number;
      resource?: string;
    } & Record<string, unknown>;
    const resource = storedResource(api, named);
    const filters = resourceFilters(api, resource);
    const foreign = Object.keys(chosen).filter((name) => !filters.some((filter) => filter.name === name));
    if (foreign.length > 0) {
      throw new HttpError(
        'invalid_parameter',
        `query parameter '${foreign[0]}' filters no ${resource.itemName}: ${resource.name} ${filters.length === 0 ? 'take no filter' : `take ${filters.map((filter) => filter.name).join(', ')}`}`,
        { details: [{ location: 'query', field: foreign[0] as string, message: `is no filter of ${resource.name}` }] },
      );
    }
    const view = await state.readStore(session, resource.name, { limit, filters: chosen });
    return {
      status: 200,
      body: {
        scenario: view.scenario,
        resource: resource.name,
        size: view.size,
        fields: storeFields(resource),
        filters: filters.map(({ name, values }) => ({ name, values })),
        items: view.items,
      },
    };
  },
  getLatency: async (_request, { session, state }) => ({
    status: 200,
    body: (await state.latency(session)) ?? { min: 0, max: 0 },
  }),
  setLatency: async (request, { session, state }) => {
    const latency = request.body as Latency;
    if (latency.min > latency.max) {
      throw new HttpError('invalid_body', `latency min (${latency.min}) must not be above max (${latency.max})`);
    }
    await state.setLatency(session, latency.max > 0 ? latency : undefined);
    return { status: 200, body: latency };
  },
};
