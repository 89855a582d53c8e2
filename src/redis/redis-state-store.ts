import { HttpError } from '../core/errors/http-error.js';
import { redactHeaders, redactUrl } from '../core/http/redact-credentials.js';
import { defaultSessionName } from '../core/http/session-header.js';
import { toJournalEntry, type Exchange, type JournalEntry } from '../core/journal/request-journal.js';
import { missingReference } from '../core/state/missing-reference.js';
import { sessionClockAt } from '../core/state/moment-of.js';
import type { StateContext } from '../core/state/state-store-factory.js';
import type {
  ActionResult,
  FaultRequest,
  FaultSource,
  JournalView,
  Latency,
  RequestCall,
  ScheduledFault,
  SessionClock,
  SessionList,
  SessionRef,
  SettledRequest,
  StateHealth,
  StateStore,
  StoreAction,
  StoreReport,
  StoreState,
  StoreView,
} from '../core/state/state-store.js';
import type { ListQuery } from '../core/store/item-collection.js';
import { StoreBytesFullError, StoreFullError } from '../core/store/store-errors.js';
import { BoundedMap } from '../core/support/bounded-map.js';
import type { MockLogger } from '../core/support/mock-logger.js';
import type {
  ActionResult as EngineResult,
  EngineEvent,
  EngineOutcome,
  EngineSession,
  StoreAction as EngineAction,
} from './engine-types.js';
import { everyCollection } from './engine-collection.js';
import { defaultDeadlineMs } from './redis-connection.js';
import { defaultStorePrefix, RedisEngine } from './redis-engine.js';

/** Where the state is, and how long a call may take: what `--store`, `--store-prefix` and `--store-timeout` give. */
export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** Namespaces every key, so that two kits share one server. Default `petstore`. */
  prefix?: string;
  /** How long a call may take before the request answers `503 store_unavailable`. Default 2000 ms. */
  deadlineMs?: number;
  /** How long a named session may go unused before it is dropped, in ms (`--session-ttl`); 0 for never. Default a day. */
  sessionTtlMs?: number;
}

/** A list with no page size reads every item; the engine takes a number. */
const everyItem = Number.MAX_SAFE_INTEGER;

function engineAction(action: StoreAction): EngineAction {
  const requires = 'requires' in action && action.requires ? { requires: action.requires } : {};
  switch (action.op) {
    case 'list':
      return {
        kind: 'list',
        collection: action.collection,
        limit: Number.isFinite(action.query.limit) ? action.query.limit : everyItem,
        ...(action.query.filters ? { filters: action.query.filters } : {}),
      };
    case 'get':
      return { kind: 'get', collection: action.collection, id: action.id };
    case 'create':
      return { kind: 'create', collection: action.collection, fields: action.fields, ...requires };
    case 'replace':
      return { kind: 'replace', collection: action.collection, id: action.id, fields: action.fields, ...requires };
    case 'update':
      return { kind: 'update', collection: action.collection, id: action.id, patch: action.patch, ...requires };
    case 'delete':
      return { kind: 'delete', collection: action.collection, id: action.id };
  }
}

function actionResult(action: StoreAction, result: EngineResult, revision: number): ActionResult {
  switch (result.kind) {
    case 'answered':
      return { revision, items: undefined, item: undefined, found: true, answered: true };
    case 'list':
      return { revision, items: result.items, item: undefined, found: true };
    case 'create':
      return { revision, items: undefined, item: result.item, found: true };
    case 'delete':
      return {
        revision,
        items: undefined,
        item: action.op === 'delete' && action.returning ? result.item : undefined,
        found: result.deleted,
      };
    default:
      return { revision, items: undefined, item: result.item, found: result.item !== undefined };
  }
}

/**
 * The revision a read may be skipped at: the one its session was last seen
 * at, when the mock holds the read's answer there. The server compares it
 * with the store's own, in the same call, so a replica whose session was
 * written by another since reads as always: only a name of the same content
 * skips the read.
 */
function knownOf(action: StoreAction | undefined, seen: number | undefined): { known?: number } {
  if (seen === undefined || !action || (action.op !== 'list' && action.op !== 'get')) return {};
  return action.answered?.(seen) ? { known: seen } : {};
}

function storeState(session: EngineSession): StoreState {
  return { scenario: session.scenario, ...session.counts };
}

/**
 * The state port (`StateStore`) over the Redis engine, for a mock run as
 * several replicas on one Redis or Valkey server: each request of the API is
 * one call (`settle`, one `FCALL`, one round trip), its journal entry a
 * second one sent without waiting (it goes out with the next request's), and
 * every control a call the admin API and the in-process API await. Journal
 * entries are redacted before they leave the process (the server is another
 * machine's memory), and a server that is down or slow makes a request
 * answer `503 store_unavailable` within the deadline, never hang.
 */
export class RedisStateStore implements StateStore {
  readonly #engine: RedisEngine;
  readonly #context: StateContext;
  readonly #prefix: string;
  /** Whether the journal's last append failed (logged once, until one succeeds again). */
  #journalFailing = false;
  /** Journal entries of this turn of the event loop, not sent yet. */
  #journalBatch: Array<{ session: string; exchange: Exchange }> = [];
  /**
   * The revision each session's store was last seen at, by session name: a
   * read whose answer the mock holds at it asks the server to skip the read
   * when the store is still there (see `known`).
   */
  readonly #seen = new BoundedMap<string, number>(1024);

  private constructor(engine: RedisEngine, context: StateContext, prefix: string) {
    this.#engine = engine;
    this.#context = context;
    this.#prefix = prefix;
  }

  /**
   * Opens the store (loading the Redis client, an optional peer dependency)
   * and resolves without waiting for the server, or, when it answers within
   * the deadline, once the starting scenario is in it: a replica started
   * while its server is down starts, says so in its log and health, and
   * keeps trying.
   */
  static async open(options: RedisStoreOptions, context: StateContext): Promise<RedisStateStore> {
    const { logger, limits } = context;
    checkStartFits(context);
    const prefix = options.prefix ?? defaultStorePrefix;
    const events = eventLogger(logger);
    const engine = await RedisEngine.open({
      url: options.url,
      prefix,
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      collections: context.shapes,
      startScenario: context.startScenario,
      seed: context.seed,
      ...(context.latency ? { latency: context.latency } : {}),
      clockOffset: context.clockOffset,
      ...(options.sessionTtlMs === undefined ? {} : { sessionTtlMs: options.sessionTtlMs }),
      clock: context.clock,
      limits: {
        maxSessions: limits.maxSessions,
        maxItems: limits.maxItems,
        maxStoreBytes: limits.maxStoreBytes,
        maxTotalStoreBytes: limits.maxTotalStoreBytes,
        journalCapacity: limits.journalSize,
        ...(limits.maxJournalBytes === undefined ? {} : { maxJournalBytes: limits.maxJournalBytes }),
        ...(limits.maxJournalReadBytes === undefined ? {} : { maxJournalReadBytes: limits.maxJournalReadBytes }),
      },
      onEvent: events,
    });
    const store = new RedisStateStore(engine, context, prefix);
    // Up to one deadline for the server's first answer, so that a mock started beside its server serves its
    // first request; a server that does not answer by then is reported, and reached later.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      engine.whenReady().then(
        () => 'ready' as const,
        (error: unknown) => error,
      ),
      new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), options.deadlineMs ?? defaultDeadlineMs);
      }),
    ]);
    clearTimeout(timer);
    // A prefix that holds another kit's keys is a mistake to stop on, not to serve 503s about.
    if (waited instanceof Error && !(waited instanceof HttpError)) {
      await engine.close();
      throw waited;
    }
    return store;
  }

  /** The engine (for a benchmark's count of round trips, and the tests). */
  get engine(): RedisEngine {
    return this.#engine;
  }

  async settle(call: RequestCall): Promise<SettledRequest> {
    const now = this.#context.clock();
    const action = call.action;
    const request = {
      session: call.session,
      create: call.make,
      operationId: call.operationId,
      latency: call.latency,
      ...(call.sunset === undefined ? {} : { sunsetMs: call.sunset }),
      now,
      ...(action ? { action: engineAction(action) } : {}),
      ...knownOf(action, this.#seen.get(call.session)),
    };
    const settled: SettledRequest = {
      session: { name: call.session },
      delayMs: 0,
      now,
      fault: undefined,
      removed: false,
      result: undefined,
      failure: undefined,
    };
    let outcome: EngineOutcome;
    try {
      outcome = await this.#engine.request(request);
      if (outcome.kind === 'no_session') {
        // A request that may make no session works on the default one, as in the memory state.
        settled.session = { name: defaultSessionName };
        outcome = await this.#engine.request({ ...request, session: defaultSessionName, create: true });
      }
    } catch (error) {
      settled.failure = this.#failure(error);
      return settled;
    }
    if (outcome.kind === 'no_session') return settled;
    if (this.#seen.get(settled.session.name) !== outcome.revision)
      this.#seen.set(settled.session.name, outcome.revision);
    settled.delayMs = outcome.delayMs;
    settled.now = now + outcome.clockOffset;
    switch (outcome.kind) {
      case 'fault':
        settled.fault = outcome.fault;
        break;
      case 'removed':
        settled.removed = true;
        break;
      case 'missing_reference':
        // The engine names the very reference the action gave it: refused as the memory state refuses it.
        settled.failure = missingReference(outcome.requirement);
        break;
      case 'done':
        if (action && outcome.result) settled.result = actionResult(action, outcome.result, outcome.revision);
        break;
    }
    return settled;
  }

  /** Any error of a call as the request's refusal: the kit's own as they are, anything else a 500 logged. */
  #failure(error: unknown): HttpError {
    if (error instanceof HttpError) return error;
    this.#context.logger.error({ err: error }, 'the Redis store failed a call');
    return new HttpError('internal_error', `the Redis store failed the call: ${(error as Error).message}`);
  }

  record(session: SessionRef, exchange: Exchange): void {
    // Redacted here, not when read: the server keeps what it is sent, and another team may run it.
    const kept: Exchange = { ...exchange, url: redactUrl(exchange.url), headers: redactHeaders(exchange.headers) };
    this.#journalBatch.push({ session: session.name, exchange: kept });
    // What this turn of the event loop served goes to the server in one call, sent at the end of the turn
    // (where the Redis client writes anyway): the entries of concurrent requests share its cost.
    if (this.#journalBatch.length === 1) setImmediate(() => void this.#flushJournal());
  }

  /** Sends the entries gathered so far; resolves once the server has them, or once their failure is logged. */
  readonly #flushJournal = (): Promise<void> => {
    const batch = this.#journalBatch;
    if (batch.length === 0) return Promise.resolve();
    this.#journalBatch = [];
    return this.#engine.recordAll(batch).then(
      () => {
        this.#journalFailing = false;
      },
      (error: unknown) => {
        if (this.#journalFailing) return;
        this.#journalFailing = true;
        this.#context.logger.warn(
          { entries: batch.length, reason: (error as Error).message },
          'journal entries could not be written to the Redis store (the next failures are not logged until one is)',
        );
      },
    );
  };

  async storeState(session: SessionRef): Promise<StoreState> {
    return storeState(await this.#engine.session(session.name));
  }

  async switchScenario(session: SessionRef, scenario: string): Promise<StoreState> {
    const { scenarios } = this.#context;
    if (!scenarios.has(scenario)) {
      throw new HttpError('scenario_not_found', `no scenario is named '${scenario}' (scenarios: ${scenarios.names()})`);
    }
    return storeState(await this.#engine.switchScenario(session.name, await scenarios.load(scenario)));
  }

  async reset(session: SessionRef): Promise<StoreState> {
    return storeState(await this.#engine.reset(session.name));
  }

  async readStore(session: SessionRef, collection: string, query: ListQuery): Promise<StoreView> {
    const limit = Number.isFinite(query.limit) ? query.limit : everyItem;
    return this.#engine.view(session.name, collection, { limit, ...(query.filters ? { filters: query.filters } : {}) });
  }

  faults(session: SessionRef): Promise<ScheduledFault[]> {
    return this.#engine.faults(session.name);
  }

  addFault(session: SessionRef, fault: FaultRequest, source: FaultSource): Promise<ScheduledFault> {
    return this.#engine.scheduleFault(session.name, fault, source);
  }

  clearFaults(session: SessionRef): Promise<number> {
    return this.#engine.clearFaults(session.name);
  }

  async latency(session: SessionRef): Promise<Latency | undefined> {
    return (await this.#engine.session(session.name)).latency;
  }

  setLatency(session: SessionRef, latency: Latency | undefined): Promise<void> {
    return this.#engine.setLatency(session.name, latency);
  }

  /** As the memory state shows it: a clock run past the end of year 9999 shows as that end. */
  async clock(session: SessionRef): Promise<SessionClock> {
    const { clockOffset } = await this.#engine.session(session.name);
    return sessionClockAt(this.#context.clock(), clockOffset);
  }

  async setClock(session: SessionRef, now: number | undefined): Promise<SessionClock> {
    const machineNow = this.#context.clock();
    const offsetMs = now === undefined ? 0 : now - machineNow;
    await this.#engine.setClockOffset(session.name, offsetMs);
    return sessionClockAt(machineNow, offsetMs);
  }

  /**
   * The newest entries whose JSON fits the read budget, oldest first, as the
   * memory journal reads them; `omitted` counts both what the server left out
   * and what the JSON did not fit.
   */
  async journal(session: SessionRef): Promise<JournalView> {
    const read = await this.#engine.journal(session.name);
    const maxReadBytes = this.#context.limits.maxJournalReadBytes ?? 2 * 1024 * 1024;
    const requests: JournalEntry[] = [];
    let bytes = 2;
    for (let index = read.records.length - 1; index >= 0; index--) {
      const entry = toJournalEntry(read.records[index] as (typeof read.records)[number]);
      const size = JSON.stringify(entry).length + 1;
      if (requests.length > 0 && bytes + size > maxReadBytes) break;
      bytes += size;
      requests.push(entry);
    }
    return {
      capacity: read.capacity,
      dropped: read.dropped,
      requests: requests.reverse(),
      omitted: read.omitted + read.records.length - requests.length,
      maxReadBytes,
    };
  }

  clearJournal(session: SessionRef): Promise<number> {
    return this.#engine.clearJournal(session.name);
  }

  async sessions(): Promise<SessionList> {
    const { max, sessions } = await this.#engine.sessions();
    return {
      max,
      sessions: sessions.map((each) => ({
        name: each.name,
        scenario: each.scenario,
        counts: each.counts,
        copied: each.copied,
        requests: each.requests,
        faults: each.faults,
        latency: each.latency,
      })),
    };
  }

  dropSession(name: string): Promise<boolean> {
    return this.#engine.dropSession(name);
  }

  /** The server's reachability (and why not), what it keeps across a restart, the journals' budget. */
  async health(): Promise<StateHealth> {
    const health = this.#engine.health();
    const store: StoreReport = {
      kind: 'redis',
      url: health.store,
      prefix: this.#prefix,
      reachable: health.reachable,
      since: health.since,
      ...(health.reason === undefined ? {} : { reason: health.reason }),
      ...(health.persistence ? { persistence: health.persistence.summary } : {}),
    };
    const maxBytes = this.#context.limits.maxJournalBytes ?? 64 * 1024 * 1024;
    const none = { bytes: 0, maxBytes, entries: 0 };
    if (!health.reachable) {
      const problem = new HttpError(
        'store_unavailable',
        `the Redis store at ${health.store} cannot be reached since ${health.since} (${health.reason ?? 'not connected'}): requests that need it are refused until it answers again, and the mock reconnects by itself`,
      );
      return { problem, journal: none, store };
    }
    try {
      return { problem: undefined, journal: await this.#engine.journalUsage(), store };
    } catch (error) {
      return { problem: this.#failure(error), journal: none, store };
    }
  }

  /** Sends the journal entries not sent yet (a replica told to stop has answered them), then closes. */
  async close(): Promise<void> {
    await this.#flushJournal();
    await this.#engine.close();
  }
}

/**
 * A starting scenario larger than a session's store may hold stops start-up,
 * as it does with the memory store, rather than every session's first write
 * being refused later.
 */
function checkStartFits({ startScenario, limits, shapes }: StateContext): void {
  const what = `scenario '${startScenario.name}'`;
  for (const [name, snapshot] of startScenario.snapshots) {
    if (snapshot.all.length > limits.maxItems) {
      throw new StoreFullError(limits.maxItems, snapshot.all.length, what, name);
    }
  }
  if (startScenario.bytes > limits.maxStoreBytes) {
    throw new StoreBytesFullError(limits.maxStoreBytes, startScenario.bytes, what, 'store', everyCollection(shapes));
  }
}

/**
 * What the engine reports, in the mock's log: the server lost and found
 * again, a connection replaced, a session evicted, and, at the first
 * connection (and whenever it changes), what the server keeps across its
 * own restart, as a warning when it keeps nothing. URLs come without their
 * password.
 */
function eventLogger(logger: MockLogger): (event: EngineEvent) => void {
  let persistence: string | undefined;
  return (event) => {
    switch (event.kind) {
      case 'unreachable':
        logger.warn(
          { store: event.store, reason: event.reason },
          'the Redis store cannot be reached: requests that need it answer 503 store_unavailable until it does; reconnecting',
        );
        break;
      case 'reachable': {
        logger.info({ store: event.store }, 'the Redis store answers');
        const summary = event.persistence?.summary;
        if (summary !== undefined && summary !== persistence) {
          persistence = summary;
          if (event.persistence?.persists === false) {
            logger.warn(
              { store: event.store },
              `${summary}: give it snapshots (save) or an append-only file (appendonly yes) to keep them (docs/persistence.md)`,
            );
          } else {
            logger.info({ store: event.store }, summary);
          }
        }
        break;
      }
      case 'connection_replaced':
        logger.warn({ store: event.store, reason: event.reason }, 'the Redis connection was replaced');
        break;
      case 'library_loaded':
        logger.info({ store: event.store }, "the kit's Lua library was loaded into the Redis store");
        break;
      case 'session_evicted':
        logger.info({ session: event.session, max: event.max }, 'session evicted, the least recently used');
        break;
    }
  };
}

/** The state factory `createSharedMockCore` takes, for a Redis or Valkey server. */
export function redisState(options: RedisStoreOptions): (context: StateContext) => Promise<RedisStateStore> {
  return (context) => RedisStateStore.open(options, context);
}
