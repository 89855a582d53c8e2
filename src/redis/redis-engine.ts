import { BoundedMap } from '../core/support/bounded-map.js';
import { HttpError } from '../core/errors/http-error.js';
import { defaultMaxJournalBytes, defaultMaxJournalReadBytes } from '../core/journal/request-journal.js';
import { stringifyJson, toInt64 } from '../core/json/exact-json.js';
import { defaultSessionName } from '../core/http/session-header.js';
import { maxScheduledFaults } from '../core/state/fault-limits.js';
import type { FaultRequest, FaultSource, Latency, ScheduledFault } from '../core/state/state-store.js';
import type { Scenario } from '../core/store/scenario.js';
import { IdSpaceExhaustedError, StoreBytesFullError, StoreFullError } from '../core/store/store-errors.js';
import { engineCollection, everyCollection, type EngineCollection } from './engine-collection.js';
import { engineLibrary } from './engine-library.js';
import type {
  ActionResult,
  EngineJournal,
  EngineOutcome,
  EngineRequest,
  EngineSession,
  EngineStoreView,
  RedisEngineOptions,
  SessionFacts,
  StoreAction,
} from './engine-types.js';
import type { Exchange } from '../core/journal/request-journal.js';
import { journalFields, journalRecord } from './journal-record.js';
import { ItemCache } from './item-cache.js';
import { keySegment } from './key-segment.js';
import { RedisConnection, type StoreHealth } from './redis-connection.js';
import { keyFormat, publishScenario, scenarioDigest } from './scenario-publisher.js';
import type { ServerPersistence } from './server-persistence.js';
import { sortMember } from './sort-member.js';

/**
 * How long a named session may go unused before the store drops it, when
 * `--session-ttl` is not given: a day. A QA run uses its session at every
 * request, so only a run that sends nothing for a whole day loses it, while
 * the sessions of a shared sandbox's finished runs and departed clients go
 * within a day instead of staying until `--max-sessions` pushes them out.
 */
export const defaultSessionTtlMs = 24 * 60 * 60 * 1000;

/**
 * How long a scenario's items stay on the server once no session stands on
 * it (or goes back to it at a reset) and no running replica starts from it:
 * a week. Replicas renew the scenarios in use every hour (`scenarioKeepMs`),
 * so only one left unused for a week goes, such as the one an older version
 * of the document or of a scenario file wrote.
 */
export const defaultScenarioTtlMs = 7 * 24 * 60 * 60 * 1000;

/** The prefix of every key when none is given (`--store-prefix`). */
export const defaultStorePrefix = 'petstore';
const prefixPattern = /^[A-Za-z0-9._:-]{1,64}$/;

/** A number from a name (FNV-1a), as a session seeds its generator (session.ts): the same draws in both stores. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * A new item's JSON text with a NUL byte where its id goes (the script puts
 * the id it takes from the counter there; JSON writes a NUL nowhere else, as
 * strings escape it). Its members are in the order of the object the memory
 * store builds, `{ [idField]: id, ...fields }`, each written as the exact
 * writer writes it.
 */
function createTemplate(idField: string, fields: Readonly<Record<string, unknown>>): string {
  const item: Record<string, unknown> = { [idField]: 0, ...fields };
  item[idField] = 0;
  const members: string[] = [];
  for (const key of Object.keys(item)) {
    const value = key === idField ? '\u0000' : stringifyJson(item[key]);
    if (value !== undefined) members.push(`${JSON.stringify(key)}:${value}`);
  }
  return `{${members.join(',')}}`;
}

function limitText(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '' : String(value);
}

function text(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

/**
 * The Redis (or Valkey) engine of the shared store: every piece of the
 * mock's state that replicas share (each session's items, ids, faults,
 * latency, clock, scenario, journal, and the registry of sessions), behind
 * async methods, each one call of its Lua function (one round trip), run
 * atomically there. Sessions share their scenario's items, written once and
 * read-only, and keep only their own changes, as the memory store does.
 * Every call has a deadline; an unreachable or hung server makes calls
 * reject with `503 store_unavailable` and shows in `health()`, and the
 * engine reconnects by itself. See docs/architecture.md for the key schema.
 */
export class RedisEngine {
  /** The key prefix with its hash tag (`{petstore}`): every key of one kit lies in one Cluster slot. */
  readonly keyPrefix: string;
  readonly #connection: RedisConnection;
  readonly #collections = new Map<string, EngineCollection>();
  /** The byte limits are the whole store's: their refusals name every collection (`pets and categories`). */
  readonly #everyCollection: string;
  readonly #segments = new Map<string, EngineCollection>();
  readonly #scenarios = new Map<string, Scenario>();
  readonly #options: RedisEngineOptions;
  readonly #limits: Required<NonNullable<RedisEngineOptions['limits']>>;
  readonly #startDigest: string;
  readonly #startLatency: [string, string];
  readonly #startOffset: string;
  readonly #limitArgs: string[];
  /** How long a named session may stay unused, in ms, as the script reads it ('' for no limit). */
  readonly #sessionTtl: string;
  readonly #clock: () => number;
  readonly #scenarioTtlMs: number;
  #scenarioKeeper: ReturnType<typeof setInterval> | undefined;
  readonly #blocks = new BoundedMap<string, string[]>(1024);
  /** Items by their stored text: a list read again does not parse its items again. */
  readonly #items = new ItemCache();

  private constructor(connection: RedisConnection, options: RedisEngineOptions) {
    const prefix = options.prefix ?? defaultStorePrefix;
    this.keyPrefix = `{${prefix}}`;
    this.#connection = connection;
    this.#options = options;
    for (const shape of options.collections) {
      const collection = engineCollection(shape);
      this.#collections.set(shape.name, collection);
      this.#segments.set(collection.seg, collection);
    }
    this.#everyCollection = everyCollection(options.collections);
    const limits = options.limits ?? {};
    this.#limits = {
      maxSessions: limits.maxSessions ?? 100,
      maxItems: limits.maxItems ?? Number.POSITIVE_INFINITY,
      maxStoreBytes: limits.maxStoreBytes ?? Number.POSITIVE_INFINITY,
      maxTotalStoreBytes: limits.maxTotalStoreBytes ?? Number.POSITIVE_INFINITY,
      maxFaults: limits.maxFaults ?? maxScheduledFaults,
      journalCapacity: limits.journalCapacity ?? 500,
      journalBodyLimit: limits.journalBodyLimit ?? 16 * 1024,
      maxJournalBytes: limits.maxJournalBytes ?? defaultMaxJournalBytes,
      maxJournalReadBytes: limits.maxJournalReadBytes ?? defaultMaxJournalReadBytes,
    };
    this.#limitArgs = [
      limitText(this.#limits.maxSessions),
      limitText(this.#limits.maxItems),
      limitText(this.#limits.maxStoreBytes),
      limitText(this.#limits.maxTotalStoreBytes),
    ];
    this.#sessionTtl = limitText(
      options.sessionTtlMs === 0 ? undefined : (options.sessionTtlMs ?? defaultSessionTtlMs),
    );
    this.#clock = options.clock ?? Date.now;
    this.#scenarioTtlMs = options.scenarioTtlMs ?? defaultScenarioTtlMs;
    const [first] = this.#collections.values();
    if (!first) throw new Error('the Redis store needs at least one collection');
    this.#startDigest = scenarioDigest(options.startScenario, [...this.#collections.values()]);
    this.#scenarios.set(this.#startDigest, options.startScenario);
    const latency = options.latency && options.latency.max > 0 ? options.latency : undefined;
    this.#startLatency = [String(latency?.min ?? 0), String(latency?.max ?? 0)];
    this.#startOffset = String(options.clockOffset ?? 0);
  }

  /**
   * Opens the engine on the server at `options.url` and resolves at once,
   * whether or not the server answers: until it does, calls reject with
   * `503 store_unavailable` and `health()` says why, and the engine keeps
   * trying. The starting scenario is written to the server when it is first
   * reached (and again whenever the server lost it).
   */
  static async open(options: RedisEngineOptions): Promise<RedisEngine> {
    const prefix = options.prefix ?? defaultStorePrefix;
    if (!prefixPattern.test(prefix)) {
      throw new Error(
        `the store prefix must be 1-64 letters, digits, '.', '_', ':' or '-', got ${JSON.stringify(prefix.slice(0, 80))}`,
      );
    }
    const opened: { engine?: RedisEngine } = {};
    const connection = await RedisConnection.open({
      url: options.url,
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      onEvent: (event) => {
        options.onEvent?.(event);
        if (event.kind === 'reachable' && opened.engine) void opened.engine.#prepare().catch(() => undefined);
      },
    });
    const engine = new RedisEngine(connection, options);
    opened.engine = engine;
    // Renews the scenarios in use a few times within their expiry (at most every hour); a failure waits for the next.
    engine.#scenarioKeeper = setInterval(
      () => void engine.keepScenarios().catch(() => undefined),
      Math.min(engine.#scenarioTtlMs / 4, 60 * 60 * 1000),
    );
    engine.#scenarioKeeper.unref();
    return engine;
  }

  /** Resolves once the server has answered and the starting scenario is in it (start-up and tests wait on it). */
  async whenReady(): Promise<void> {
    await this.#connection.whenReady();
    await this.#prepare();
  }

  /**
   * Checks that the prefix holds the engine's key layout (or nothing yet)
   * and writes the starting scenario, once per connection.
   */
  async #prepare(): Promise<void> {
    const meta = `${this.keyPrefix}:meta`;
    await this.#connection.send(['HSETNX', meta, 'format', keyFormat]);
    const format = text(await this.#connection.send(['HGET', meta, 'format']));
    if (format !== keyFormat) {
      throw new Error(
        `the Redis store at ${this.#connection.store} holds keys of another layout (${format}) under the prefix ${this.keyPrefix}: name another --store-prefix`,
      );
    }
    await this.publishScenario(this.#options.startScenario);
  }

  /** Whether the store answers, since when, why not; and what the server keeps across its restart. */
  health(): StoreHealth {
    return this.#connection.health();
  }

  /** What the server keeps across its own restart (the CLI warns when nothing), once read. */
  get persistence(): ServerPersistence | undefined {
    return this.#connection.persistence;
  }

  /** Calls sent to the server so far (each one round trip): what a benchmark divides by requests. */
  get roundTrips(): number {
    return this.#connection.roundTrips;
  }

  /** How often the server did not hold the engine's library and was sent it. */
  get libraryLoads(): number {
    return this.#connection.libraryLoads;
  }

  /**
   * Writes a scenario's items to the server (once per content: replicas share them) and renews their expiry;
   * returns its digest.
   */
  async publishScenario(scenario: Scenario): Promise<string> {
    const digest = await publishScenario(this.#connection, this.keyPrefix, scenario, [...this.#collections.values()]);
    this.#scenarios.set(digest, scenario);
    await this.#keep([digest]);
    return digest;
  }

  /**
   * Renews the expiry of the scenarios in use: those a session stands on or goes back to, and this
   * replica's starting one. Returns how many it renewed.
   */
  async keepScenarios(): Promise<number> {
    return this.#keep([this.#startDigest]);
  }

  async #keep(digests: readonly string[]): Promise<number> {
    const reply = await this.#run([
      'scenario_keep',
      String(this.#scenarioTtlMs),
      keySegment(defaultSessionName),
      String(digests.length),
      ...digests,
    ]);
    return Number(reply[1]);
  }

  async close(): Promise<void> {
    clearInterval(this.#scenarioKeeper);
    await this.#connection.close();
  }

  #collection(name: string): EngineCollection {
    const found = this.#collections.get(name);
    if (!found) {
      throw new Error(
        `the store has no collection '${name}' (collections: ${[...this.#collections.keys()].join(', ')})`,
      );
    }
    return found;
  }

  /** The session block of a call's arguments (kept for the names seen last: a request repeats its session's). */
  #session(name: string, create = true): string[] {
    const key = create ? name : `\0${name}`;
    let block = this.#blocks.get(key);
    if (!block) {
      const seed = (this.#options.seed ^ hashName(name)) >>> 0;
      block = [
        keySegment(name),
        name,
        create ? '1' : '0',
        name === defaultSessionName ? '0' : '1',
        this.#startDigest,
        ...this.#startLatency,
        this.#startOffset,
        String(seed),
        ...this.#limitArgs,
        this.#sessionTtl,
      ];
      this.#blocks.set(key, block);
    }
    // The mock's clock, for a named session's idle time (the session's own clock may be set anywhere).
    return [...block, String(this.#clock())];
  }

  #collectionList(): string[] {
    return [String(this.#collections.size), ...[...this.#collections.values()].map((each) => each.seg)];
  }

  /**
   * Runs one operation of the engine's function. A scenario the server no longer holds
   * (it restarted without persistence, or evicted keys) is written again and
   * the call repeated; the session's evictions are reported.
   */
  async #run(args: Array<string | Buffer>, buffers = false): Promise<unknown[]> {
    for (let attempt = 0; ; attempt++) {
      const reply = (await this.#connection.call(engineLibrary, [this.keyPrefix], args, buffers)) as unknown[];
      if (text(reply[0]) !== 'scenario_missing') return reply;
      const digest = text(reply[1]);
      const scenario = this.#scenarios.get(digest);
      if (!scenario || attempt >= 2) {
        throw new HttpError(
          'store_unavailable',
          `the Redis store at ${this.#connection.store} no longer holds the items of scenario ${digest}${scenario ? ` ('${scenario.name}'), even written again` : ', which this replica did not write'}: the server lost keys (it must not evict any: maxmemory-policy noeviction); a reset takes the session back to its starting scenario`,
        );
      }
      await this.publishScenario(scenario);
    }
  }

  /** The session a control evicted (its reply's second element), reported; the rest of the reply. */
  #evictedFrom(reply: unknown[]): unknown[] {
    const evicted = text(reply[1] ?? '');
    if (evicted !== '') {
      this.#options.onEvent?.({ kind: 'session_evicted', session: evicted, max: this.#limits.maxSessions });
    }
    return reply;
  }

  // The per-request call.

  /**
   * One request of the API, as one atomic call of the engine's function: finds or makes the
   * session (`create`), marks it used, draws its latency, takes a matching
   * scheduled fault, refuses an operation past its sunset by the session's
   * clock, and, when nothing stopped it, runs the store action. A write the
   * store's limits refuse throws the kit's errors (`507 store_full`, `500
   * id_space_exhausted`) and changes nothing.
   */
  async request(call: EngineRequest): Promise<EngineOutcome> {
    const action = call.action;
    const args: string[] = [
      'request',
      ...this.#session(call.session, call.create),
      call.operationId ?? '',
      call.latency === false ? '0' : '1',
      call.sunsetMs === undefined ? '' : String(call.sunsetMs),
      String(call.now),
      action?.kind ?? '',
      call.known === undefined || (action?.kind !== 'list' && action?.kind !== 'get') ? '' : String(call.known),
    ];
    const collection = action ? this.#collection(action.collection) : undefined;
    if (action && collection) args.push(...this.#actionArgs(action, collection));
    const reply = await this.#run(args);
    const status = text(reply[0]);
    if (status === 'no_session') return { kind: 'no_session' };
    const latency =
      Number(reply[2]) > 0 ? { min: Number(reply[1]), max: Number(reply[2]) } : (undefined as Latency | undefined);
    const drawn = text(reply[3]);
    const facts: SessionFacts = {
      scenario: text(reply[6]),
      latency,
      delayMs: latency && drawn !== '' ? latency.min + (Number(drawn) / 4294967296) * (latency.max - latency.min) : 0,
      clockOffset: Number(reply[4]),
      evicted: text(reply[5]) === '' ? undefined : text(reply[5]),
      revision: Number(reply[7]),
    };
    if (facts.evicted !== undefined) {
      this.#options.onEvent?.({ kind: 'session_evicted', session: facts.evicted, max: this.#limits.maxSessions });
    }
    if (status === 'fault') {
      const fault = this.#fault(text(reply[8]), text(reply[9]), text(reply[10]));
      // A fault scheduled before sources were kept has none: the admin API's, as in the memory plan.
      const source = (text(reply[11]) || 'POST /__admin/faults') as FaultSource;
      return { kind: 'fault', fault: { ...fault, source }, ...facts };
    }
    if (status === 'removed') return { kind: 'removed', sessionNow: call.now + facts.clockOffset, ...facts };
    if (!action || !collection) return { kind: 'done', result: undefined, ...facts };
    if (status === 'answered') return { kind: 'done', result: { kind: 'answered' }, ...facts };
    if (status === 'missing_reference') {
      const requirement = action.requires?.[Number(reply[8]) - 1];
      if (!requirement) throw new Error('the store named a reference the write did not give');
      return { kind: 'missing_reference', requirement, ...facts };
    }
    if (status !== 'ok') throw this.#refusal(status, reply.slice(8), action, collection);
    return { kind: 'done', result: this.#result(action, reply.slice(8)), ...facts };
  }

  #actionArgs(action: StoreAction, collection: EngineCollection): string[] {
    const { shape } = collection;
    const args = [...collection.block];
    const requires = action.requires ?? [];
    args.push(String(requires.length));
    for (const requirement of requires) {
      const other = this.#collection(requirement.collection);
      args.push(other.seg, sortMember(requirement.id, other.shape.idType));
    }
    switch (action.kind) {
      case 'list':
        args.push(String(action.limit), ...this.#filterArgs(collection, action.filters));
        break;
      case 'get':
      case 'delete':
        args.push(sortMember(action.id, shape.idType));
        break;
      case 'create':
        args.push(createTemplate(shape.idField, action.fields));
        break;
      case 'replace': {
        const item: Record<string, unknown> = { [shape.idField]: action.id, ...action.fields };
        item[shape.idField] = action.id;
        args.push(sortMember(action.id, shape.idType), stringifyJson(item));
        break;
      }
      case 'update': {
        const entries = Object.entries(action.patch);
        args.push(sortMember(action.id, shape.idType), String(entries.length));
        for (const [field, value] of entries) {
          args.push(JSON.stringify(field), value === null || value === undefined ? '' : stringifyJson(value));
        }
        break;
      }
    }
    return args;
  }

  #filterArgs(collection: EngineCollection, filters: Readonly<Record<string, unknown>> | undefined): string[] {
    const args: string[] = [];
    let count = 0;
    for (const field in filters) {
      if (!Object.hasOwn(filters, field)) continue;
      const value = filters[field];
      if (value === undefined) continue;
      const indexed = collection.indexed.find((each) => each.field === field);
      args.push(JSON.stringify(field), indexed?.seg ?? '', stringifyJson(value));
      count++;
    }
    return [String(count), ...args];
  }

  #result(action: StoreAction, values: unknown[]): ActionResult {
    switch (action.kind) {
      case 'list':
        return { kind: 'list', items: values.map((value) => this.#items.item(text(value))) };
      case 'create':
        return { kind: 'create', item: this.#items.item(text(values[0])) };
      case 'delete':
        return {
          kind: 'delete',
          deleted: text(values[0]) === '1',
          item: values[1] === undefined || values[1] === null ? undefined : this.#items.item(text(values[1])),
        };
      default: {
        const [value] = values;
        return {
          kind: action.kind,
          item: value === null || value === undefined ? undefined : this.#items.item(text(value)),
        };
      }
    }
  }

  /** The kit's own error for a refusal of the script: what the memory store throws for the same write. */
  #refusal(status: string, values: unknown[], action: StoreAction | undefined, collection: EngineCollection): Error {
    const name = this.#segments.get(text(values[2] ?? collection.seg))?.shape.name ?? collection.shape.name;
    const { itemName } = collection.shape;
    const what =
      action === undefined
        ? 'the scenario'
        : action.kind === 'create'
          ? `a new ${itemName}`
          : 'id' in action
            ? `the new values of ${itemName} ${String(action.id)}`
            : `a new ${itemName}`;
    const [max, wanted] = [Number(values[0]), Number(values[1])];
    switch (status) {
      case 'full_items':
        return new StoreFullError(max, wanted, what, name);
      case 'full_store':
        return new StoreBytesFullError(max, wanted, what, 'store', this.#everyCollection);
      case 'full_mock':
        return new StoreBytesFullError(max, wanted, what, 'mock', this.#everyCollection);
      case 'id_exhausted':
        return new IdSpaceExhaustedError(toInt64(text(values[0])) ?? text(values[0]));
      default:
        return new Error(`the Redis store's script answered '${status}'`);
    }
  }

  #fault(id: string, spec: string, left: string): ScheduledFault {
    // Written exactly (a chance the client sent is kept as it wrote it), read as numbers: a fault's fields are
    // small numbers, which a typed caller compares as numbers.
    const fault = { id: Number(id), ...(JSON.parse(spec) as FaultRequest) } as ScheduledFault;
    if (left !== '') fault.times = Number(left);
    return fault;
  }

  // The controls: admin API and in-process.

  #sessionInfo(values: unknown[]): EngineSession {
    const names = [...this.#collections.keys()];
    const [name, scenario, copied, requests, faults, min, max, offset] = values.slice(0, 8).map(text);
    const counts = Object.fromEntries(names.map((each, index) => [each, Number(values[8 + index])]));
    return {
      name: name as string,
      scenario: scenario as string,
      copied: copied === '1',
      requests: Number(requests),
      faults: Number(faults),
      latency: Number(max) > 0 ? { min: Number(min), max: Number(max) } : undefined,
      clockOffset: Number(offset),
      counts,
    };
  }

  #expect(reply: unknown[], what: string): unknown[] {
    const status = text(reply[0]);
    if (status === 'ok') return this.#evictedFrom(reply).slice(2);
    if (status === 'no_session') throw new HttpError('session_not_found', `no session is named '${what}'`);
    throw new Error(`the Redis store's script answered '${status}' to ${what}`);
  }

  /** A session as listings show it (made if it does not exist yet, and marked used). */
  async session(name: string): Promise<EngineSession> {
    const reply = await this.#run(['info', ...this.#session(name), ...this.#collectionList()]);
    return this.#sessionInfo(this.#expect(reply, name));
  }

  /** Every session: the default one first, then the named ones, the least recently used first. */
  async sessions(): Promise<{ max: number; sessions: EngineSession[] }> {
    const reply = await this.#run(['sessions', ...this.#session(defaultSessionName), ...this.#collectionList()]);
    const values = this.#expect(reply, 'the session listing');
    const width = Number(values[0]);
    const sessions: EngineSession[] = [];
    for (let start = 1; start + width <= values.length; start += width) {
      sessions.push(this.#sessionInfo(values.slice(start, start + width)));
    }
    return { max: this.#limits.maxSessions, sessions };
  }

  /** Drops a named session with its items, journal and faults; false when there was none. The default one stays. */
  async dropSession(name: string): Promise<boolean> {
    if (name === defaultSessionName) {
      throw new HttpError(
        'invalid_session',
        'the default session cannot be dropped; POST /__admin/reset takes it back to its scenario',
      );
    }
    const reply = await this.#run(['drop', keySegment(name)]);
    return text(reply[1]) === '1';
  }

  /** Sets the session's latency from now on; `{ min: 0, max: 0 }` (or undefined) removes it. */
  async setLatency(name: string, latency: Latency | undefined): Promise<void> {
    const [min, max] = latency && latency.max > 0 ? [latency.min, latency.max] : [0, 0];
    this.#expect(await this.#run(['latency', ...this.#session(name), String(min), String(max)]), name);
  }

  /** Sets how far the session's clock runs from the mock's, in ms (0: the mock's clock). */
  async setClockOffset(name: string, offsetMs: number): Promise<void> {
    this.#expect(await this.#run(['clock', ...this.#session(name), String(offsetMs)]), name);
  }

  /**
   * Schedules a fault (checked by the caller, as the admin API checks it),
   * remembering who scheduled it for the Error body it makes; beyond the
   * limit, `409 too_many_faults`.
   */
  async scheduleFault(
    name: string,
    request: FaultRequest,
    source: FaultSource = 'POST /__admin/faults',
  ): Promise<ScheduledFault> {
    const times = request.times ?? (request.probability === undefined ? 1 : undefined);
    const spec: Record<string, unknown> = { ...request };
    if (times === undefined) delete spec.times;
    else spec.times = times;
    const reply = await this.#run([
      'fault_add',
      ...this.#session(name),
      String(this.#limits.maxFaults),
      stringifyJson(spec),
      request.operationId ?? '',
      request.probability === undefined ? '' : String(request.probability),
      times === undefined ? '' : String(times),
      source,
    ]);
    if (text(reply[0]) === 'too_many_faults') {
      // The reply's second element is the session the call evicted (none here), its third the count.
      throw new HttpError(
        'too_many_faults',
        `the session already has ${text(reply[2])} faults scheduled, the most it may hold (${this.#limits.maxFaults}); DELETE /__admin/faults clears them, or give one fault a times count`,
      );
    }
    const [id] = this.#expect(reply, name);
    return this.#fault(text(id), stringifyJson(spec), '');
  }

  /** The faults still to come, in the order they were scheduled. */
  async faults(name: string): Promise<ScheduledFault[]> {
    const values = this.#expect(await this.#run(['fault_list', ...this.#session(name)]), name);
    const faults: ScheduledFault[] = [];
    for (let index = 0; index + 2 < values.length; index += 3) {
      faults.push(this.#fault(text(values[index]), text(values[index + 1]), text(values[index + 2])));
    }
    return faults;
  }

  async clearFaults(name: string): Promise<number> {
    const [count] = this.#expect(await this.#run(['fault_clear', ...this.#session(name)]), name);
    return Number(count);
  }

  /**
   * Points the session's store at a scenario (written to the server first,
   * once per content); a scenario beyond the store's limits throws `507
   * store_full` and changes nothing. Faults, latency and journal stay.
   */
  async switchScenario(name: string, scenario: Scenario): Promise<EngineSession> {
    const digest = await this.publishScenario(scenario);
    const reply = await this.#run(['switch', ...this.#session(name), digest, ...this.#collectionList()]);
    const status = text(reply[0]);
    if (status !== 'ok') {
      const [first] = this.#collections.values() as IterableIterator<EngineCollection>;
      const refusal = this.#refusal(status, reply.slice(2), undefined, first as EngineCollection);
      if (refusal instanceof StoreFullError || refusal instanceof StoreBytesFullError) {
        const what = `scenario '${scenario.name}'`;
        throw refusal instanceof StoreFullError
          ? new StoreFullError(refusal.maxItems, refusal.wanted, what, refusal.collection)
          : new StoreBytesFullError(refusal.maxBytes, refusal.wanted, what, refusal.scope, refusal.collection);
      }
      throw refusal;
    }
    return this.#sessionInfo(this.#expect(reply, name));
  }

  /**
   * Takes the session back to its start: its starting scenario's items, no
   * faults (the next is number 1 again), its starting latency and clock, an
   * empty journal, and its draws from the start of their sequence.
   */
  async reset(name: string): Promise<EngineSession> {
    const reply = await this.#run(['reset', ...this.#session(name), ...this.#collectionList()]);
    return this.#sessionInfo(this.#expect(reply, name));
  }

  /** A collection of the session's store as it is, for the admin view: no fault, no journal entry. */
  async view(
    name: string,
    collectionName: string,
    query: { limit: number; filters?: Readonly<Record<string, unknown>> },
  ): Promise<EngineStoreView> {
    const collection = this.#collection(collectionName);
    const reply = await this.#run([
      'view',
      ...this.#session(name),
      ...collection.block,
      String(query.limit),
      ...this.#filterArgs(collection, query.filters),
    ]);
    const [scenario, size, ...items] = this.#expect(reply, name);
    return { scenario: text(scenario), size: Number(size), items: items.map((each) => this.#items.item(text(each))) };
  }

  // The journal.

  /**
   * Appends an exchange to the session's journal (nothing when the session
   * is gone): beyond its capacity its oldest entry makes room, and beyond
   * the mock's byte budget the oldest entries of every journal do. Callers
   * may send it without waiting (it pipelines with the next call).
   */
  async record(name: string, exchange: Exchange): Promise<void> {
    await this.recordAll([{ session: name, exchange }]);
  }

  /**
   * Appends exchanges, of any sessions, in this order, in one call: what a
   * replica served in one turn of its event loop goes to the server together.
   */
  async recordAll(entries: ReadonlyArray<{ session: string; exchange: Exchange }>): Promise<void> {
    const args: Array<string | Buffer> = [
      'journal_append',
      String(this.#limits.journalCapacity),
      String(this.#limits.maxJournalBytes),
      String(entries.length),
    ];
    for (const { session, exchange } of entries) {
      const { fields, bytes } = journalFields(exchange, this.#limits.journalBodyLimit);
      args.push(keySegment(session), String(bytes), String(fields.length));
      for (const field of fields) args.push(field);
    }
    await this.#connection.call(engineLibrary, [this.keyPrefix], args);
  }

  /** The session's journal: its newest entries within the read limit, oldest first, exactly as recorded. */
  async journal(name: string): Promise<EngineJournal> {
    const reply = await this.#run(
      ['journal_read', ...this.#session(name), String(this.#limits.maxJournalReadBytes)],
      true,
    );
    const [dropped, omitted, ...entries] = this.#expect(reply, name);
    return {
      capacity: this.#limits.journalCapacity,
      dropped: Number(text(dropped)),
      omitted: Number(text(omitted)),
      records: entries.map(journalRecord),
    };
  }

  /** Empties the session's journal; how many entries it held. */
  async clearJournal(name: string): Promise<number> {
    const [count] = this.#expect(await this.#run(['journal_clear', ...this.#session(name)]), name);
    return Number(count);
  }

  /** What every journal holds together, against the budget (for the health answer). */
  async journalUsage(): Promise<{ bytes: number; maxBytes: number; entries: number }> {
    const [bytes, entries] = await Promise.all([
      this.#connection.send(['GET', `${this.keyPrefix}:jbytes`]),
      this.#connection.send(['ZCARD', `${this.keyPrefix}:jorder`]),
    ]);
    return { bytes: Number(bytes ?? 0), maxBytes: this.#limits.maxJournalBytes, entries: Number(entries) };
  }
}
