import type { OpenAPIV3 } from 'openapi-types';
import { createAdminDocument } from './admin/admin-document.js';
import { adminHandlers, type AdminContext } from './admin/admin-handlers.js';
import { scheduleFault, setLatency } from './admin/session-controls.js';
import { storeFilters } from './admin/store-filters.js';
import type { HandlerTable } from './handlers/handler-types.js';
import type { ItemContext } from './handlers/item-context.js';
import { itemHandlers } from './handlers/item-handlers.js';
import { handleRequest, type Pipeline } from './handle-request.js';
import { InflateBudget, inflateWithWebStreams, type Inflate } from './http/inflate.js';
import type { PlainRequest, PlainResponse } from './http/plain-http.js';
import { silentLogger, type MockLogger } from './mock-logger.js';
import {
  compileDocument,
  markDocumentChecked,
  type CompiledDocument,
  type CompiledOperation,
} from './openapi/compile-document.js';
import { compileDocumentOnce } from './openapi/compile-document-once.js';
import { DocumentError } from './openapi/document-error.js';
import { HttpError } from './errors/http-error.js';
import type { Latency } from './pipeline/apply-latency.js';
import { createAuthenticator, type Authenticator } from './pipeline/authenticate.js';
import { createHostCheck, type HostOptions } from './pipeline/check-host.js';
import { createCorsPolicy, type CorsOptions } from './pipeline/cors-policy.js';
import { deprecationHeaders } from './pipeline/deprecation-headers.js';
import { ResponseCache } from './pipeline/response-cache.js';
import { runHandler, type FallbackMocker } from './pipeline/run-handler.js';
import type { Answer, MiddleInput, Mount } from './pipeline/select-mount.js';
import { FixtureError } from './scenarios/fixture.js';
import { ScenarioCatalogue, type GeneratePets, type ScenarioInfo } from './scenarios/scenario-catalogue.js';
import { Session, type StoreState } from './sessions/session.js';
import { resetSession, switchScenario } from './sessions/session-actions.js';
import type { FaultRequest, ScheduledFault } from './sessions/fault-plan.js';
import { defaultSessionName, SessionRegistry } from './sessions/session-registry.js';
import type { PublicFile } from './pipeline/serve-public-file.js';
import { createForwardingMiddle, type Forwarder } from './pipeline/forward-upstream.js';
import type { ReportedExchange } from './pipeline/observe-exchange.js';
import { readPreference } from './pipeline/read-preference.js';
import { refuse, report, reportAndRefuse, type RequestPolicy } from './pipeline/request-policy.js';
import { ModelPartitions } from './model/model-partitions.js';
import { headerValue, withFoldedHeaders } from './http/plain-http.js';
import { stringifyJson } from './json/exact-json.js';
import { describeApi, type ApiModel } from './model/describe-api.js';
import { createItemListCheck, ItemListError } from './store/check-item-list.js';
import { collectionShapes } from './store/collection-shapes.js';
import type { Item } from './store/item-snapshot.js';
import { createRevisionCounter, type MemoryStore, type StoreBudget } from './store/memory-store.js';
import type { Scenario } from './store/scenario.js';
import type { ExactPet } from './types/api-types.js';
import { checkSunset } from './pipeline/check-sunset.js';
import { momentOf } from './sessions/moment-of.js';
import { keepGeneratedPets } from './seed/keep-generated-pets.js';
import { JournalBudget, type RequestJournal } from './journal/request-journal.js';

/** Where the animals API is served by default: the `/v1` every base address of the spec ends with. */
export const defaultBasePath = '/v1';
export const adminBasePath = '/__admin';
/** The default of `maxPets` and `--max-pets`. */
export const defaultMaxPets = 100_000;
/** The default of `maxStoreBytes` and `--max-store-bytes`: 64 MiB of pets (as JSON) per session. */
export const defaultMaxStoreBytes = 64 * 1024 * 1024;
/** The default of `maxTotalStoreBytes` and `--max-total-store-bytes`: 256 MiB for every session together. */
export const defaultMaxTotalStoreBytes = 256 * 1024 * 1024;
/** The defaults of `pets` and `seed` (`--pets`, `--seed`): a generated scenario without its own count or seed. */
export const defaultPetCount = 50;
export const defaultSeed = 1;

/** A scenario given as an object: its name and its fixture (see fixture.ts). */
export interface ScenarioSource {
  name: string;
  fixture: unknown;
  /** Names it in messages (a file path); default `scenario '<name>'`. */
  source?: string;
}

export interface MockCoreOptions {
  /** The OpenAPI 3.0 document, as an object. */
  document: OpenAPIV3.Document;
  /** Names the document in messages. Default `document`. */
  documentSource?: string;
  /** The scenarios the mock knows, by name: fixtures as objects. */
  fixtures: Readonly<Record<string, unknown>>;
  /** Names a fixture in messages (e.g. its file). Default `fixture '<name>'`. */
  fixtureSource?: (name: string) => string;
  /** The scenario to start from: a name of `fixtures`, or a scenario of its own. Default `default`. */
  scenario?: string | ScenarioSource;
  /** Accepted bearer keys. Default `['dev-key']`. */
  keys?: readonly string[];
  /** Seed of generated pets and of every random draw (latency). Default 1. */
  seed?: number;
  /** Pets in a generated scenario that does not say how many. Default 50. */
  pets?: number;
  /** Simulated latency in ms, fixed (`min` = `max`) or a range. Default none. */
  latency?: Latency;
  /** The most pets a store holds; a create beyond it answers `507 store_full`. Default 100,000. */
  maxPets?: number;
  /** The most bytes of pets (their JSON) one session's store holds; beyond, `507 store_full`. Default 64 MiB. */
  maxStoreBytes?: number;
  /**
   * The most bytes of pets every session's store holds together (a store
   * counts from its first write, until then it shares its scenario's pets);
   * beyond, `507 store_full`. Default 256 MiB.
   */
  maxTotalStoreBytes?: number;
  /** Largest accepted request body, as sent and inflated, in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Bytes the request bodies being inflated (`Content-Encoding`) hold
   * together, every request in flight's: beyond, `413 payload_too_large` with
   * `Retry-After`, and the body inflates no further. Default 64 MiB.
   */
  maxInflatedBytes?: number;
  /** How many exchanges a journal keeps (each session has one). Default 500. */
  journalSize?: number;
  /**
   * The bytes every session's journal holds together (URLs, headers and kept
   * bodies); beyond, the oldest entries of the mock make room. Default 64 MiB.
   */
  maxJournalBytes?: number;
  /** The most one read of a journal (`GET /__admin/requests`) returns, as JSON; the oldest entries are left out beyond. Default 2 MiB. */
  maxJournalReadBytes?: number;
  /** Named sessions kept at most (`Petstore-Session`), besides the default one. Default 100. */
  maxSessions?: number;
  /** The document's own text, served as it is at `/openapi.yaml` (its JSON form is always at `/openapi.json`). */
  documentText?: string;
  /** More files served to anyone, by path (the web pages, in Node). */
  publicFiles?: Readonly<Record<string, PublicFile>>;
  /** Makes the mock the validating proxy: the API's requests go upstream, judged on the way (see the proxy). */
  proxy?: ProxyCoreOptions;
  /** Where the API is served. Default `/v1`. */
  basePath?: string;
  /**
   * Which pages may call the mock from a browser (see cors-policy.ts). Default `{ origins: 'any' }`:
   * in-process, the app's own dev server or test owns the origin. The CLI's server and the proxy pass
   * `{ origins: 'loopback', allowed: --cors-origin }`.
   */
  cors?: CorsOptions;
  /**
   * Which `Host` names the mock answers to, against DNS rebinding (see check-host.ts). Default: no check
   * (in-process). The CLI's server and the proxy pass loopback names, the address they listen on and
   * `--allowed-host`.
   */
  hosts?: HostOptions;
  /** Default: silent. */
  logger?: MockLogger;
  /** Answers operations without a handler (Prism, in Node). Default: they answer `500 mock_failed`. */
  fallback?: (compiled: CompiledDocument) => FallbackMocker;
  /** Undoes Content-Encoding. Default: the Web streams' gzip and deflate. */
  inflate?: Inflate;
  /** Makes Faker pets. Default: Faker loaded on demand (a separate chunk in a browser build). */
  generatePets?: GeneratePets;
  /**
   * Items saved earlier (a state file), by collection name: restored over the
   * scenario, so that a reset still goes back to the scenario. Checked like a
   * fixture's items.
   */
  saved?: { items: Readonly<Record<string, unknown>>; source: string };
  /** The clock, in ms since the epoch. Default `Date.now`. */
  clock?: () => number;
  /**
   * The moment every session's clock starts at (an ISO date such as
   * `2030-12-06`, or ms since the epoch), running on from there: a team sees
   * its app after an operation's sunset. Default: the clock's own time.
   */
  now?: string | number | Date;
}

/** The proxy in place of the handlers: where requests go, and what becomes of the verdicts. */
export interface ProxyCoreOptions {
  forward: Forwarder;
  /** Refuse an invalid request (400, not forwarded) and replace an answer that fails a rule (502). */
  enforce: boolean;
  /** How long a created pet may take to be readable before a 404 for it is a lost write. */
  settleMs: number;
  /** Items the proxy remembers across exchanges at most, in every partition together. Default 10,000. */
  memoryItems?: number;
  /** Headers (lower case) that partition the traffic besides `Petstore-Session` (a tenant header). Default none. */
  partitionHeaders?: readonly string[];
  /** Judge every credential's traffic as one store (by default each credential is a partition of its own). */
  sharedCredentials?: boolean;
  /** Told of every judged exchange under the API's base path. */
  onExchange(exchange: ReportedExchange): void;
  /** The report so far, for `GET /__admin/violations`. */
  report(): unknown;
}

/** The in-process face of one session: what the admin API does, as typed calls. */
export interface SessionApi {
  /** The session's store; its shortcuts (`list`, `get`, `create`, `all`, `size`) act on the document's first collection. */
  readonly store: MemoryStore<ExactPet>;
  readonly journal: RequestJournal;
  /** The current scenario's name. */
  readonly scenario: string;
  switchScenario(name: string): Promise<StoreState>;
  /**
   * Schedules a fault for the session's next requests, as `POST
   * /__admin/faults`: `{ status: 500, operationId }` answers the next request
   * of that operation with a 500 Error body, `{ fault: 'connection_reset' }`
   * breaks the next request's connection. Refused as over HTTP (`400
   * invalid_fault`, `409 too_many_faults`). `reset()` removes it, used or not.
   */
  scheduleFault(fault: FaultRequest): ScheduledFault;
  /** The faults still to come, as `GET /__admin/faults`. */
  faults(): ScheduledFault[];
  /** Removes every fault still to come, as `DELETE /__admin/faults`; how many there were. */
  clearFaults(): number;
  /**
   * The session's latency from now on, as `PUT /__admin/latency` (`{ min: 0,
   * max: 0 }`: none). `reset()` restores the latency of the options.
   */
  setLatency(latency: Latency): Latency;
  /**
   * Back to the start, as `POST /__admin/reset`: the scenario the mock was
   * created with (not one switched to since) and its pets, no faults (used or
   * not), the latency of the options (not one set since), an empty journal.
   */
  reset(): StoreState;
  /**
   * Sets the session's clock to `now` (an ISO date such as `2030-12-06`, or
   * ms since the epoch), running on from there, as `PUT /__admin/clock`
   * does; `undefined` goes back to the mock's clock. Undone by `reset()`.
   */
  setNow(now: string | number | Date | undefined): void;
  /** The session's time, in ms since the epoch. */
  now(): number;
}

export interface MockCore extends SessionApi {
  /** A session by name (made on first use, as a request with `Petstore-Session: name` would). */
  session(name: string): SessionApi;
  /** Answers one request. Never throws: every problem is an Error body. */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /** Resolves once the first scenario is loaded (at once, unless Faker must be loaded first). */
  readonly ready: Promise<void>;
  readonly compiled: CompiledDocument;
  /** What the mock knows of the document: its resources and each operation's kind. */
  readonly api: ApiModel;
  /** Every scenario the mock knows. */
  scenarios(): ScenarioInfo[];
}

/** Faker, loaded only when a scenario generates pets that were not made before (a separate chunk in a browser). */
const defaultGeneratePets: GeneratePets = keepGeneratedPets(async (options) =>
  (await import('./seed/generate-pets.js')).generatePets(options),
);

/** The admin API's document, compiled once per API document (its Error schema is the API's own). */
const adminDocuments = new WeakMap<CompiledDocument, CompiledDocument>();

function compileAdminDocument(api: CompiledDocument): CompiledDocument {
  let admin = adminDocuments.get(api);
  if (!admin) {
    const document = createAdminDocument(
      api.document.components?.schemas ?? {},
      describeApi(api).resources.map((resource) => resource.name),
      storeFilters(api),
    );
    // The kit's own document, built from schemas already checked with the API's: compiled without checking them again.
    markDocumentChecked(document);
    admin = compileDocument(document, 'admin API');
    adminDocuments.set(api, admin);
  }
  return admin;
}

function checkHandlers(compiled: CompiledDocument, handlers: HandlerTable<never>): void {
  for (const operationId of Object.keys(handlers)) {
    if (!compiled.byId.has(operationId)) {
      throw new DocumentError(
        `${compiled.source}: a handler exists for '${operationId}', but no operation has that id`,
      );
    }
  }
}

function createMount<Context>(options: {
  basePath: string;
  compile: () => CompiledDocument;
  handlers: HandlerTable<Context>;
  policy: RequestPolicy;
  authenticate: Authenticator;
  /** Answers instead of the handlers (the proxy's upstream). */
  middle?: (compiled: CompiledDocument) => Mount['middle'];
  context: (session: Session) => Context;
  /** Runs before the handler (after the request is classified): throws to answer instead (the sunset's 410). */
  before?: (operation: CompiledOperation, session: Session) => void;
  fallback: ((compiled: CompiledDocument) => FallbackMocker) | undefined;
  admin: boolean;
  /** Compile and check on the first request rather than now (the admin API: the kit's own, fixed document). */
  lazy: boolean;
}): Mount {
  let compiled: CompiledDocument | undefined;
  let operationHeaders: Map<CompiledOperation, Record<string, string>> | undefined;
  let fallback: FallbackMocker | undefined;
  let middle: Mount['middle'] | undefined;
  const prepare = (): CompiledDocument => {
    if (compiled) return compiled;
    const ready = options.compile();
    checkHandlers(ready, options.handlers as HandlerTable<never>);
    operationHeaders = new Map(
      ready.operations.map((operation) => [operation, deprecationHeaders(ready, operation, options.basePath)]),
    );
    if (options.fallback && ready.operations.some((operation) => !options.handlers[operation.operationId])) {
      fallback = options.fallback(ready);
    }
    middle = options.middle?.(ready);
    compiled = ready;
    return ready;
  };
  // A check that fails on the first request would answer 500 to every request instead of stopping start-up.
  if (!options.lazy) prepare();
  const handle = async ({ operation, classified, request, session }: MiddleInput): Promise<Answer> => {
    if (!operation || !classified?.valid) throw new Error('a request the policy refuses reached the handlers');
    options.before?.(operation, session);
    const preference = readPreference(operation, headerValue(request, 'prefer'));
    let response = await runHandler({
      operation,
      request: classified.valid,
      preference,
      handlers: options.handlers,
      context: options.context(session),
      fallback,
    });
    if (preference.status !== undefined) {
      response = { ...response, headers: { ...response.headers, 'preference-applied': `code=${preference.status}` } };
    }
    return { kind: 'handled', response };
  };
  return {
    basePath: options.basePath,
    admin: options.admin,
    policy: options.policy,
    authenticate: options.authenticate,
    cache: new ResponseCache(),
    get compiled() {
      return prepare();
    },
    get operationHeaders() {
      prepare();
      return operationHeaders as Map<CompiledOperation, Record<string, string>>;
    },
    middle: (input) => {
      prepare();
      return middle ? middle(input) : handle(input);
    },
  };
}

/** `pets`, `pets and orders`: the collections of saved items, for messages. */
function describeCollections(items: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(items);
  return names.length === 0 ? 'items' : names.join(' and ');
}

/** Saved items (a state file), each collection checked by the one item-list check, like a fixture's. */
function checkSaved(
  compiled: CompiledDocument,
  api: ApiModel,
  saved: { items: Readonly<Record<string, unknown>>; source: string },
): Record<string, Item[]> {
  const checked: Record<string, Item[]> = {};
  for (const [name, items] of Object.entries(saved.items)) {
    const resource = api.resource(name);
    if (!resource) {
      throw new ItemListError(
        `${saved.source}: holds '${name}', which is no collection of the document (collections: ${api.resources.map((each) => each.name).join(', ')})`,
      );
    }
    checked[name] = createItemListCheck(compiled, resource)(items, saved.source);
  }
  return checked;
}

/** Keys are the upstream's to judge: the proxy's API checks none. */
const leaveKeysUpstream: Authenticator = () => undefined;

/**
 * Builds the mock from objects: the document, the fixtures, the options. It
 * touches no file, network or clock of its own, so the same core runs in
 * node:http, Express, a Fetch handler, MSW and a browser. Everything is
 * derived from the document and checked here: a broken document or fixture
 * throws before any request is answered.
 */
export function createMockCore(options: MockCoreOptions): MockCore {
  const logger = options.logger ?? silentLogger;
  // Served as /openapi.json, and the key of the compile cache: a second mock of the same document compiles nothing.
  const documentJson = stringifyJson(options.document);
  const compiled = compileDocumentOnce(options.document, options.documentSource ?? 'document', documentJson);
  const errorSchema = compiled.document.components?.schemas?.Error;
  if (!errorSchema) throw new DocumentError(`${compiled.source}: components.schemas.Error is required`);
  const api = describeApi(compiled);
  const shapes = collectionShapes(api);
  for (const { operation, unplaced } of api.unplaced()) {
    logger.warn(
      { operationId: operation.operationId, reason: unplaced, fallback: options.fallback ? 'prism' : 'none' },
      `${operation.operationId} (${operation.method} ${operation.pathTemplate}) has no behaviour of the kit: ${unplaced}; ${options.fallback ? 'the fallback mocker (Prism, where installed; else 501 not_implemented) answers it from the document' : 'it answers 501 not_implemented'} (x-petstore-kind places an operation)`,
    );
  }
  const clock = options.clock ?? Date.now;
  const startOffset = options.now === undefined ? 0 : momentOf(options.now, 'now') - clock();
  const revisions = createRevisionCounter();
  const catalogue = new ScenarioCatalogue({
    compiled,
    api,
    shapes,
    revisions,
    pets: options.pets ?? defaultPetCount,
    seed: options.seed ?? defaultSeed,
    generatePets: options.generatePets ?? defaultGeneratePets,
  });
  const fixtureSource = options.fixtureSource ?? ((name: string) => `fixture '${name}'`);
  for (const [name, fixture] of Object.entries(options.fixtures)) catalogue.add(name, fixture, fixtureSource(name));
  const requested = options.scenario ?? 'default';
  const scenarioName =
    typeof requested === 'string'
      ? requested
      : catalogue.add(requested.name, requested.fixture, requested.source ?? `scenario '${requested.name}'`);
  if (!catalogue.has(scenarioName)) {
    throw new FixtureError(`unknown scenario '${scenarioName}' (known: ${catalogue.names()})`);
  }
  const savedItems = options.saved ? checkSaved(compiled, api, options.saved) : undefined;
  const maxPets = options.maxPets ?? defaultMaxPets;
  const maxBytes = options.maxStoreBytes ?? defaultMaxStoreBytes;
  // Issue 20: one budget for every session's store, so that 100 sessions cannot hold 100 times a store's limit.
  const budget: StoreBudget = {
    maxBytes: options.maxTotalStoreBytes ?? defaultMaxTotalStoreBytes,
    charged: () => (sessions ? sessions.list().reduce((sum, each) => sum + each.store.chargedBytes, 0) : 0),
  };
  const journalSize = options.journalSize ?? 500;
  // Issue 27: one byte budget for every session's journal, so that 100 sessions cannot hold 100 journals' worth.
  const journalBudget = new JournalBudget({
    ...(options.maxJournalBytes === undefined ? {} : { maxBytes: options.maxJournalBytes }),
    ...(options.maxJournalReadBytes === undefined ? {} : { maxReadBytes: options.maxJournalReadBytes }),
  });

  const seed = options.seed ?? defaultSeed;
  let sessions: SessionRegistry | undefined;
  const start = (scenario: Scenario): void => {
    const createSession = (name: string) =>
      new Session({
        name,
        scenario,
        shapes,
        clockOffset: startOffset,
        maxPets,
        maxBytes,
        budget,
        revisions,
        journalSize,
        journalBudget,
        latency: options.latency,
        seed,
      });
    const defaultSession = createSession(defaultSessionName);
    if (savedItems && options.saved) {
      defaultSession.store.restore(
        savedItems,
        `the ${describeCollections(savedItems)} saved in ${options.saved.source}`,
      );
    }
    sessions = new SessionRegistry({
      defaultSession,
      create: createSession,
      max: options.maxSessions ?? 100,
      logger,
    });
  };
  const first = catalogue.load(scenarioName);
  let pending: Promise<void> | undefined;
  if (first instanceof Promise) {
    pending = first.then(start, (error: unknown) => {
      logger.error({ err: error }, 'the first scenario could not be loaded');
      throw new HttpError('mock_failed', `scenario '${scenarioName}' could not be loaded: ${(error as Error).message}`);
    });
  } else {
    start(first);
  }
  const registry = (): SessionRegistry => {
    if (!sessions) throw new Error('the mock is not ready yet: await mock.ready first');
    return sessions;
  };
  const sessionApi = (of: () => Session): SessionApi => ({
    get store() {
      return of().store as MemoryStore<ExactPet>;
    },
    get journal() {
      return of().journal;
    },
    get scenario() {
      return of().store.scenarioName;
    },
    switchScenario: (name) => switchScenario(of(), catalogue, name),
    scheduleFault: (fault) => scheduleFault(of(), compiled, fault),
    faults: () => of().faults.list(),
    clearFaults: () => of().faults.clear(),
    setLatency: (latency) => setLatency(of(), latency),
    reset: () => resetSession(of()),
    setNow: (now) => {
      of().clockOffset = now === undefined ? 0 : momentOf(now, 'now') - clock();
    },
    now: () => of().now(clock),
  });

  const basePath = options.basePath ?? defaultBasePath;
  const authenticate = createAuthenticator(options.keys ?? ['dev-key']);
  const { proxy } = options;
  const served = createMount<ItemContext>({
    basePath,
    compile: () => compiled,
    handlers: itemHandlers(api),
    policy: proxy ? (proxy.enforce ? reportAndRefuse : report) : refuse,
    authenticate: proxy ? leaveKeysUpstream : authenticate,
    ...(proxy
      ? {
          middle: (ready: CompiledDocument) =>
            createForwardingMiddle({
              compiled: ready,
              forward: proxy.forward,
              enforce: proxy.enforce,
              memory: new ModelPartitions({
                compiled: ready,
                settleMs: proxy.settleMs,
                ...(proxy.memoryItems === undefined ? {} : { maxItems: proxy.memoryItems }),
                ...(proxy.partitionHeaders ? { headers: proxy.partitionHeaders } : {}),
                sharedCredentials: proxy.sharedCredentials === true,
              }),
              now: () => performance.now(),
            }),
        }
      : {}),
    context: (current) => ({ store: current.store }),
    // After an operation's sunset (x-sunset), by the session's clock, the mock answers it 410 Gone.
    before: (operation, session) => checkSunset(compiled, operation, session.now(clock)),
    fallback: proxy ? undefined : options.fallback,
    admin: false,
    lazy: false,
  });
  // The admin API is the kit's own small document: compiled on its first request, not at every start.
  const admin = createMount<AdminContext>({
    basePath: adminBasePath,
    compile: () => compileAdminDocument(compiled),
    handlers: adminHandlers,
    policy: refuse,
    authenticate,
    context: (current) => ({
      session: current,
      sessions: registry(),
      scenarios: catalogue,
      api: compiled,
      clock,
      proxyReport: proxy?.report,
    }),
    fallback: undefined,
    admin: true,
    lazy: true,
  });

  const encoder = new TextEncoder();
  const publicFiles = new Map<string, PublicFile>([
    ['/openapi.json', { type: 'application/json', body: encoder.encode(documentJson) }],
    ...(options.documentText === undefined
      ? []
      : [['/openapi.yaml', { type: 'application/yaml', body: encoder.encode(options.documentText) }] as const]),
    ...Object.entries(options.publicFiles ?? {}),
  ]);
  const pipeline: Pipeline = {
    mounts: [served, admin],
    publicFiles,
    selectSession: (request) => {
      const choice = registry().select(request);
      // The proxy passes the session header on: the upstream judges it, as it judges the key.
      return proxy ? { name: choice.problem ? defaultSessionName : choice.name } : choice;
    },
    // Sessions are made only for authenticated requests (the proxy authenticates none of the API's: it uses a
    // session made through its admin API, or the default one).
    session: (name, make) =>
      make && !proxy ? registry().session(name) : (registry().find(name) ?? registry().defaultSession),
    carriesKey: (request) => {
      if (proxy) return false;
      try {
        authenticate(headerValue(request, 'authorization'));
        return true;
      } catch {
        return false;
      }
    },
    // The browser-facing policy; preflights derive their header and method lists from both documents.
    checkHost: options.hosts ? createHostCheck(options.hosts) : undefined,
    cors: createCorsPolicy(options.cors, () => [served.compiled, admin.compiled]),
    inflate: options.inflate ?? inflateWithWebStreams,
    inflateBudget: new InflateBudget(options.maxInflatedBytes),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    logger,
    logRequests: logger.isLevelEnabled?.('info') ?? true,
    ready: pending,
    ...(proxy ? { onExchange: proxy.onExchange } : {}),
  };
  if (pending)
    pending.then(
      () => (pipeline.ready = undefined),
      () => undefined,
    );

  // The mock itself is the default session's face, plus what is the mock's own (getters, not a spread: the
  // default session exists only once the first scenario is loaded).
  const core = sessionApi(() => registry().defaultSession) as MockCore;
  return Object.defineProperties(core, {
    // A plain request built by hand (or by an adapter whose headers keep their case) may have names in any case.
    handle: {
      value: (request: PlainRequest) => handleRequest(pipeline, withFoldedHeaders(request)),
      enumerable: true,
    },
    ready: { value: pending ?? Promise.resolve(), enumerable: true },
    compiled: { value: compiled, enumerable: true },
    api: { value: api, enumerable: true },
    scenarios: { value: () => catalogue.list(), enumerable: true },
    session: { value: (name: string) => sessionApi(() => registry().session(name)), enumerable: true },
  });
}
