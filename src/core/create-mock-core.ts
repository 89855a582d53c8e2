import type { OpenAPIV3 } from 'openapi-types';
import { adminHandlers } from './admin/admin-handlers.js';
import { createAdminMiddle } from './admin/admin-middle.js';
import { compileAdminDocument } from './admin/compile-admin-document.js';
import { HttpError } from './errors/http-error.js';
import { itemHandlers } from './handlers/item-handlers.js';
import { handleRequest, type Pipeline } from './handle-request.js';
import { InflateBudget, inflateWithWebStreams, type Inflate } from './http/inflate.js';
import { headerValue, withFoldedHeaders, type PlainRequest, type PlainResponse } from './http/plain-http.js';
import { chooseSession, defaultSessionName } from './http/session-header.js';
import { JournalBudget } from './journal/request-journal.js';
import { stringifyJson } from './json/exact-json.js';
import { describeApi, type ApiModel } from './model/describe-api.js';
import type { CompiledDocument } from './openapi/compile-document.js';
import { compileDocumentOnce } from './openapi/compile-document-once.js';
import { DocumentError } from './openapi/document-error.js';
import { ModelPartitions } from './oracle/model-partitions.js';
import { prepareRequestIds } from './pipeline/assign-request-id.js';
import { createAuthenticator, type Authenticator } from './pipeline/authenticate.js';
import { createHostCheck, type HostOptions } from './pipeline/check-host.js';
import { createCorsPolicy, type CorsOptions } from './pipeline/cors-policy.js';
import { createMount } from './pipeline/create-mount.js';
import { createForwardingMiddle, type Forwarder } from './pipeline/forward-upstream.js';
import type { ReportedExchange } from './pipeline/observe-exchange.js';
import { refuse, report, reportAndRefuse } from './pipeline/request-policy.js';
import { createHandlerMiddle, type FallbackMocker } from './pipeline/run-handler.js';
import type { PublicFile } from './pipeline/serve-public-file.js';
import type { Mount } from './pipeline/select-mount.js';
import { FixtureError } from './scenarios/fixture.js';
import { defaultPetCount, defaultSeed } from './scenarios/scenario-defaults.js';
import { ScenarioCatalogue, type ScenarioInfo } from './scenarios/scenario-catalogue.js';
import type { GenerateItems } from './seed/draw-items.js';
import { keepGeneratedItems } from './seed/keep-generated-items.js';
import { createAsyncSessionApi, createSessionApi, type AsyncSessionApi, type SessionApi } from './session-api.js';
import { MemoryStateStore } from './sessions/memory-state-store.js';
import { Session } from './sessions/session.js';
import { SessionRegistry } from './sessions/session-registry.js';
import { momentOf } from './state/moment-of.js';
import type { StateContext, StateStoreFactory } from './state/state-store-factory.js';
import type { Latency, SessionList, StateHealth, StateStore } from './state/state-store.js';
import { checkSavedItems, describeCollections } from './store/check-saved-items.js';
import { collectionShapes } from './store/collection-shapes.js';
import { StoreBudget } from './store/store-budget.js';
import type { CollectionShape } from './store/item-snapshot.js';
import { createRevisionCounter, type RevisionCounter } from './store/revision-counter.js';
import type { Scenario } from './store/scenario.js';
import { silentLogger, type MockLogger } from './support/mock-logger.js';
import type { Awaitable } from './types/awaitable.js';

/** Where the animals API is served by default: the `/v1` every base address of the spec ends with. */
export const defaultBasePath = '/v1';
export const adminBasePath = '/__admin';
/** The default of `maxPets` and `--max-pets`: the most items of each collection one session's store holds. */
export const defaultMaxPets = 100_000;
/** The default of `maxStoreBytes` and `--max-store-bytes`: 64 MiB of pets (as JSON) per session. */
export const defaultMaxStoreBytes = 64 * 1024 * 1024;
/** The default of `maxTotalStoreBytes` and `--max-total-store-bytes`: 256 MiB for every session together. */
export const defaultMaxTotalStoreBytes = 256 * 1024 * 1024;

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
  /**
   * Fixture keys read as another collection of the document, by key: `{ pets:
   * 'animals' }` serves the kit's scenarios, whose items are `pets`, with a
   * document that renamed the collection `/animals` (`--fixture-collection
   * pets=animals`). Without it, a fixture that names no collection of the
   * document stops start-up (or, one of the kit's own, is refused when asked
   * for). Default none.
   */
  fixtureCollections?: Readonly<Record<string, string>>;
  /** Accepted bearer keys. Default `['dev-key']`. */
  keys?: readonly string[];
  /** Seed of generated items and of every random draw (latency). Default 1. */
  seed?: number;
  /** Items of each collection in a generated scenario that does not say how many (`--pets`). Default 50. */
  pets?: number;
  /** Simulated latency in ms, fixed (`min` = `max`) or a range. Default none. */
  latency?: Latency;
  /**
   * The most items each collection of a session's store holds (`--max-pets`:
   * pets, in the kit's document); a create beyond it answers `507
   * store_full`. Default 100,000.
   */
  maxPets?: number;
  /** The most bytes of items (their JSON) one session's store holds; beyond, `507 store_full`. Default 64 MiB. */
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
  /** Makes Faker items. Default: Faker loaded on demand (a separate chunk in a browser build). */
  generateItems?: GenerateItems;
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

/** How both mocks answer a request: the in-process entry every adapter calls. */
export interface AnswersRequests {
  /** Answers one request. Never throws: every problem is an Error body. */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /**
   * Answers one request as `handle` does, giving the answer itself rather
   * than a promise when every stage had it at once (the memory store, no
   * latency, no body still to read), so that an adapter can send it in the
   * same turn (the node:http adapter does); a promise otherwise. Never throws.
   */
  handleNow(request: PlainRequest): Awaitable<PlainResponse>;
}

export interface MockCore extends SessionApi, AnswersRequests {
  /** A session by name (made on first use, as a request with `Petstore-Session: name` would). */
  session(name: string): SessionApi;
  /** Resolves once the first scenario is loaded (at once, unless Faker must be loaded first). */
  readonly ready: Promise<void>;
  readonly compiled: CompiledDocument;
  /** What the mock knows of the document: its resources and each operation's kind. */
  readonly api: ApiModel;
  /** Every scenario the mock knows. */
  scenarios(): ScenarioInfo[];
}

export interface SharedMockCoreOptions extends MockCoreOptions {
  /**
   * Builds the state the mock shares with its replicas (a Redis or Valkey
   * server: src/redis/), once the first scenario is loaded; the mock answers
   * once it resolves. Neither `saved` (a state file) nor `proxy` goes with it.
   */
  state: StateStoreFactory;
}

/**
 * The mock over a state shared by replicas: the same requests and answers as
 * `MockCore`, and its in-process calls under the same names, each a promise
 * (the state is on a server): see `AsyncSessionApi`.
 */
export interface SharedMockCore extends AsyncSessionApi, AnswersRequests {
  /** Tells it apart from the memory mock, whose calls answer at once. */
  readonly shared: true;
  /** A session by name (made on its first call, as a request with `Petstore-Session: name` would make it). */
  session(name: string): AsyncSessionApi;
  /** Resolves once the first scenario is loaded and the state opened (its server may still be down). */
  readonly ready: Promise<void>;
  readonly compiled: CompiledDocument;
  readonly api: ApiModel;
  /** Every scenario the mock knows. */
  scenarios(): ScenarioInfo[];
  /** Every session, as `GET /__admin/sessions` lists them. */
  sessions(): Promise<SessionList>;
  /** Drops a named session, as `DELETE /__admin/sessions/NAME`; whether it existed. */
  dropSession(name: string): Promise<boolean>;
  /** Whether the store answers (and why not), as `GET /__admin/health`. */
  health(): Promise<StateHealth>;
  /** Closes the connection to the store; requests after it answer `503 store_unavailable`. */
  close(): Promise<void>;
}

/** Faker, loaded only when a scenario generates items that were not made before (a separate chunk in a browser). */
const defaultGenerateItems: GenerateItems = keepGeneratedItems(async (options) =>
  (await import('./seed/generate-items.js')).generateItemsLazily(options),
);

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
  const parts = prepareCore(options);
  const { logger, compiled, api, clock, catalogue, scenarioName } = parts;
  const savedItems = options.saved ? checkSavedItems(compiled, api, options.saved) : undefined;
  const makeSessions = sessionMaker(options, parts);
  let state: MemoryStateStore | undefined;
  let sessions: SessionRegistry | undefined;
  const start = (scenario: Scenario): void => {
    const defaultSession = makeSessions(defaultSessionName, scenario);
    if (savedItems && options.saved) {
      defaultSession.store.restore(
        savedItems,
        `the ${describeCollections(savedItems)} saved in ${options.saved.source}`,
      );
    }
    sessions = new SessionRegistry({
      defaultSession,
      create: (name) => makeSessions(name, scenario),
      max: options.maxSessions ?? 100,
      logger,
    });
    state = new MemoryStateStore({ sessions, scenarios: catalogue, clock });
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
  const started = (): { state: MemoryStateStore; sessions: SessionRegistry } => {
    if (!state || !sessions) throw new Error('the mock is not ready yet: await mock.ready first');
    return { state, sessions };
  };
  const pipeline = createPipeline(options, { ...parts, started, pending });
  const sessionApi = (of: () => Session): SessionApi => createSessionApi(() => started().state, of, compiled, clock);

  // The mock itself is the default session's face, plus what is the mock's own (getters, not a spread: the
  // default session exists only once the first scenario is loaded).
  const core = sessionApi(() => started().sessions.defaultSession) as MockCore;
  const handleNow = answerer(pipeline);
  return Object.defineProperties(core, {
    handle: { value: promiseOf(handleNow), enumerable: true },
    handleNow: { value: handleNow, enumerable: true },
    ready: { value: pending ?? Promise.resolve(), enumerable: true },
    compiled: { value: compiled, enumerable: true },
    api: { value: api, enumerable: true },
    scenarios: { value: () => catalogue.list(), enumerable: true },
    session: {
      value: (name: string) => sessionApi(() => started().sessions.session(name)),
      enumerable: true,
    },
  });
}

/**
 * Builds the mock over a state shared by replicas (see `SharedMockCore`):
 * the same document, scenarios, pipeline and checks as `createMockCore`,
 * with the state the `state` option builds in place of the memory sessions.
 */
export function createSharedMockCore(options: SharedMockCoreOptions): SharedMockCore {
  if (options.saved) {
    throw new Error(
      'saved items (a state file) restore a memory store: a shared store keeps its state on its server; give one or the other',
    );
  }
  if (options.proxy) throw new Error('the proxy keeps what it learns per process: it takes no shared store');
  const parts = prepareCore(options);
  const { logger, compiled, api, clock, catalogue, scenarioName } = parts;
  const clockOffset = options.now === undefined ? 0 : momentOf(options.now, 'now') - clock();
  let state: StateStore | undefined;
  const context = (scenario: Scenario): StateContext => ({
    shapes: parts.shapes,
    startScenario: scenario,
    scenarios: catalogue,
    seed: options.seed ?? defaultSeed,
    latency: options.latency,
    clockOffset,
    limits: {
      maxSessions: options.maxSessions ?? 100,
      maxItems: options.maxPets ?? defaultMaxPets,
      maxStoreBytes: options.maxStoreBytes ?? defaultMaxStoreBytes,
      maxTotalStoreBytes: options.maxTotalStoreBytes ?? defaultMaxTotalStoreBytes,
      journalSize: options.journalSize ?? 500,
      maxJournalBytes: options.maxJournalBytes,
      maxJournalReadBytes: options.maxJournalReadBytes,
    },
    clock,
    logger,
  });
  const open = async (scenario: Scenario): Promise<void> => {
    state = await options.state(context(scenario));
  };
  const first = catalogue.load(scenarioName);
  const ready = first instanceof Promise ? first.then(open) : open(first);
  // Requests wait for the state; one that cannot be opened is an Error body naming why, not a crash.
  const pending = ready.catch((error: unknown) => {
    logger.error({ err: error }, 'the shared store could not be opened');
    throw new HttpError('mock_failed', `the mock could not open its store: ${(error as Error).message}`);
  });
  const started = (): { state: StateStore } => {
    if (!state) throw new Error('the mock is not ready yet: await mock.ready first');
    return { state };
  };
  const pipeline = createPipeline(options, { ...parts, started, pending });
  const stateOf = async (): Promise<StateStore> => {
    await ready;
    return started().state;
  };
  const handleNow = answerer(pipeline);
  const face = (name: string): AsyncSessionApi => createAsyncSessionApi(stateOf, { name }, compiled);
  return {
    ...face(defaultSessionName),
    shared: true,
    session: face,
    handle: promiseOf(handleNow),
    handleNow,
    ready,
    compiled,
    api,
    scenarios: () => catalogue.list(),
    sessions: async () => (await stateOf()).sessions(),
    dropSession: async (name) => (await stateOf()).dropSession(name),
    health: async () => (await stateOf()).health(),
    close: async () => {
      await ready.catch(() => undefined);
      await state?.close?.();
    },
  };
}

/**
 * The pipeline's answer to a request, at once where every stage had it. A
 * plain request built by hand (or by an adapter whose headers keep their
 * case) may have header names in any case: they are folded first.
 */
function answerer(pipeline: Pipeline): (request: PlainRequest) => Awaitable<PlainResponse> {
  return (request) => handleRequest(pipeline, withFoldedHeaders(request));
}

/** `handle`: the answer as a promise always (a bug thrown at once rejects it). */
function promiseOf(
  handleNow: (request: PlainRequest) => Awaitable<PlainResponse>,
): (request: PlainRequest) => Promise<PlainResponse> {
  return async (request) => handleNow(request);
}

/** What both mocks build first: the document compiled and modelled, the clock, the collections, the scenarios. */
interface CoreParts {
  logger: MockLogger;
  documentJson: string;
  compiled: CompiledDocument;
  api: ApiModel;
  clock: () => number;
  revisions: RevisionCounter;
  shapes: readonly CollectionShape[];
  catalogue: ScenarioCatalogue;
  /** The scenario to start from. */
  scenarioName: string;
}

function prepareCore(options: MockCoreOptions): CoreParts {
  const logger = options.logger ?? silentLogger;
  const { documentJson, compiled, api } = compileApi(options, logger);
  const revisions = createRevisionCounter();
  const shapes = collectionShapes(api);
  const catalogue = new ScenarioCatalogue({
    compiled,
    api,
    shapes,
    revisions,
    pets: options.pets ?? defaultPetCount,
    seed: options.seed ?? defaultSeed,
    generateItems: options.generateItems ?? defaultGenerateItems,
    ...(options.fixtureCollections ? { fixtureCollections: options.fixtureCollections } : {}),
  });
  const scenarioName = addScenarios(catalogue, options);
  return {
    logger,
    documentJson,
    compiled,
    api,
    clock: options.clock ?? Date.now,
    revisions,
    shapes,
    catalogue,
    scenarioName,
  };
}

/**
 * The document compiled (once per document in a process) and modelled: a
 * document without the Error schema stops start-up, and an operation the
 * model cannot place is named in the log.
 */
function compileApi(
  options: MockCoreOptions,
  logger: MockLogger,
): { documentJson: string; compiled: CompiledDocument; api: ApiModel } {
  // Served as /openapi.json, and the key of the compile cache: a second mock of the same document compiles nothing.
  const documentJson = stringifyJson(options.document);
  const compiled = compileDocumentOnce(options.document, options.documentSource ?? 'document', documentJson);
  const errorSchema = compiled.document.components?.schemas?.Error;
  if (!errorSchema) throw new DocumentError(`${compiled.source}: components.schemas.Error is required`);
  const api = describeApi(compiled);
  for (const { operation, unplaced } of api.unplaced()) {
    logger.warn(
      { operationId: operation.operationId, reason: unplaced, fallback: options.fallback ? 'prism' : 'none' },
      `${operation.operationId} (${operation.method} ${operation.pathTemplate}) has no behaviour of the kit: ${unplaced}; ${options.fallback ? 'the fallback mocker (Prism, where installed; else 501 not_implemented) answers it from the document' : 'it answers 501 not_implemented'} (x-petstore-kind places an operation)`,
    );
  }
  return { documentJson, compiled, api };
}

/** Adds the fixtures (and a scenario given as an object) to the catalogue; the name of the scenario to start from. */
function addScenarios(catalogue: ScenarioCatalogue, options: MockCoreOptions): string {
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
  return scenarioName;
}

/** Makes a session of the options' limits, starting from a scenario; every session shares the mock's budgets. */
function sessionMaker(
  options: MockCoreOptions,
  shared: {
    shapes: readonly CollectionShape[];
    revisions: RevisionCounter;
    clock: () => number;
  },
): (name: string, scenario: Scenario) => Session {
  // Issue 20: one budget for every session's store, so that 100 sessions cannot hold 100 times a store's limit.
  const budget = new StoreBudget(options.maxTotalStoreBytes ?? defaultMaxTotalStoreBytes);
  // Issue 27: one byte budget for every session's journal, so that 100 sessions cannot hold 100 journals' worth.
  const journalBudget = new JournalBudget({
    ...(options.maxJournalBytes === undefined ? {} : { maxBytes: options.maxJournalBytes }),
    ...(options.maxJournalReadBytes === undefined ? {} : { maxReadBytes: options.maxJournalReadBytes }),
  });
  const clockOffset = options.now === undefined ? 0 : momentOf(options.now, 'now') - shared.clock();
  return (name, scenario) =>
    new Session({
      name,
      scenario,
      shapes: shared.shapes,
      clockOffset,
      maxPets: options.maxPets ?? defaultMaxPets,
      maxBytes: options.maxStoreBytes ?? defaultMaxStoreBytes,
      budget,
      revisions: shared.revisions,
      journalSize: options.journalSize ?? 500,
      journalBudget,
      latency: options.latency,
      seed: options.seed ?? defaultSeed,
    });
}

/**
 * The pipeline the mock (or the proxy) runs every request through: the API
 * mount (the handlers, or the upstream), the admin API's, the public files,
 * the browser-facing policy, and the state.
 */
function createPipeline(
  options: MockCoreOptions,
  parts: {
    compiled: CompiledDocument;
    api: ApiModel;
    catalogue: ScenarioCatalogue;
    documentJson: string;
    logger: MockLogger;
    started: () => { state: StateStore };
    pending: Promise<void> | undefined;
  },
): Pipeline {
  const { compiled, api, catalogue, logger, started } = parts;
  const { proxy } = options;
  prepareRequestIds();
  const authenticate = createAuthenticator(options.keys ?? ['dev-key']);
  const served = createApiMount(options, compiled, api, authenticate);
  // The admin API is the kit's own small document: compiled on its first request, not at every start.
  const admin = createMount({
    basePath: adminBasePath,
    compile: () => compileAdminDocument(compiled),
    handled: Object.keys(adminHandlers),
    policy: refuse,
    authenticate,
    middle: () =>
      createAdminMiddle(adminHandlers, (session) => ({
        session,
        state: started().state,
        scenarios: catalogue,
        api: compiled,
        proxyReport: proxy?.report,
      })),
    admin: true,
    lazy: true,
  });

  const encoder = new TextEncoder();
  const publicFiles = new Map<string, PublicFile>([
    ['/openapi.json', { type: 'application/json', body: encoder.encode(parts.documentJson) }],
    ...(options.documentText === undefined
      ? []
      : [['/openapi.yaml', { type: 'application/yaml', body: encoder.encode(options.documentText) }] as const]),
    ...Object.entries(options.publicFiles ?? {}),
  ]);
  const pipeline: Pipeline = {
    mounts: [served, admin],
    publicFiles,
    // The proxy passes the session header on: the upstream judges it, as it judges the key.
    selectSession: proxy
      ? (request) => {
          const choice = chooseSession(request);
          return { name: choice.problem ? defaultSessionName : choice.name };
        }
      : chooseSession,
    get state() {
      return started().state;
    },
    // Sessions are made only for authenticated requests (the proxy authenticates none of the API's: it uses a
    // session made through its admin API, or the default one).
    makesSessions: !proxy,
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
    ready: parts.pending,
    ...(proxy ? { onExchange: proxy.onExchange } : {}),
  };
  if (parts.pending)
    parts.pending.then(
      () => (pipeline.ready = undefined),
      () => undefined,
    );
  return pipeline;
}

/**
 * The API's mount: the handlers of the document's operations over the
 * store (and the fallback mocker for the rest), or, in the proxy, the
 * upstream, judged on the way; the mock refuses a request that breaks the
 * document, the proxy notes it (and refuses it with --enforce).
 */
function createApiMount(
  options: MockCoreOptions,
  compiled: CompiledDocument,
  api: ApiModel,
  authenticate: Authenticator,
): Mount {
  const { proxy } = options;
  const handlers = itemHandlers(api);
  return createMount({
    basePath: options.basePath ?? defaultBasePath,
    compile: () => compiled,
    handled: Object.keys(handlers),
    policy: proxy ? (proxy.enforce ? reportAndRefuse : report) : refuse,
    authenticate: proxy ? leaveKeysUpstream : authenticate,
    middle: (ready, cache) =>
      proxy
        ? createForwardingMiddle({
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
          })
        : createHandlerMiddle({
            handlers,
            cache,
            fallback:
              options.fallback && ready.operations.some((operation) => !handlers[operation.operationId])
                ? options.fallback(ready)
                : undefined,
          }),
    admin: false,
    lazy: false,
  });
}
