import type { Exchange } from '../core/journal/request-journal.js';
import type {
  FaultRequest,
  Latency,
  RequiredReference,
  ScheduledFault,
  TakenFault,
} from '../core/state/state-store.js';
import type { CollectionShape, Item, ItemId } from '../core/store/item-snapshot.js';
import type { Scenario } from '../core/store/scenario.js';
import type { JournalRecord } from './journal-record.js';
import type { ConnectionEvent } from './redis-connection.js';

/** The bounds the engine holds, as the memory store and registry hold them (undefined: none, or the default). */
export interface EngineLimits {
  /** Named sessions kept besides the default one (`--max-sessions`); the least recently used goes beyond. Default 100. */
  maxSessions?: number;
  /** Items a collection of one session's store holds at most (`--max-pets`). Default: no limit. */
  maxItems?: number;
  /** Bytes of items (as JSON) one session's store holds at most (`--max-store-bytes`). Default: no limit. */
  maxStoreBytes?: number;
  /** Bytes of their own items every session holds together (`--max-total-store-bytes`). Default: no limit. */
  maxTotalStoreBytes?: number;
  /** Faults one session holds scheduled at once. Default 100. */
  maxFaults?: number;
  /** Entries one session's journal keeps. Default 500. */
  journalCapacity?: number;
  /** Bytes of each body a journal entry keeps. Default 16 KiB. */
  journalBodyLimit?: number;
  /** Bytes every journal holds together (`--max-journal-bytes`); the mock's oldest entries make room. Default 64 MiB. */
  maxJournalBytes?: number;
  /** Bytes one journal read returns at most (the newest entries that fit). Default 2 MiB. */
  maxJournalReadBytes?: number;
}

/** What the engine reports beside what it answers: a session evicted, the connection's changes. */
export type EngineEvent = ConnectionEvent | { kind: 'session_evicted'; session: string; max: number };

export interface RedisEngineOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** Namespaces every key (`--store-prefix`), so that two kits share one server. Default `petstore`. */
  prefix?: string;
  /** How long a call may take before it rejects with `503 store_unavailable`. Default 2000 ms. */
  deadlineMs?: number;
  /** The document's collections (collection-shapes.ts): one per resource, every one equal. */
  collections: readonly CollectionShape[];
  /** The scenario every session starts from, and a reset goes back to (`--scenario`). */
  startScenario: Scenario;
  /** The mock's seed: each session's draws start from it and the session's name. */
  seed: number;
  /** The latency every session starts with (`--latency`). */
  latency?: Latency;
  /** How far every session's clock starts from the mock's, in ms (`--now`). */
  clockOffset?: number;
  limits?: EngineLimits;
  /**
   * How long a named session may go unused (no call names it) before it is
   * dropped with its items, faults and journal, in ms (`--session-ttl`);
   * 0 keeps sessions until `maxSessions` evicts them. Default a day. The
   * default session never expires.
   */
  sessionTtlMs?: number;
  /**
   * How long the server keeps a scenario's items once nothing uses it (no session stands on it or goes back
   * to it, no running replica starts from it), in ms. Default a week.
   */
  scenarioTtlMs?: number;
  /** The mock's clock, in ms since the epoch, that idle time is counted by. Default `Date.now`. */
  clock?: () => number;
  onEvent?: (event: EngineEvent) => void;
}

/** A write's reference to another item, which must exist in the same session's store. */
/** An item a write refers to, as the state port names it: the outcome gives the same object back when it is missing. */
export type Requirement = RequiredReference;

/** What one request asks of its session's store, by operation kind. */
export type StoreAction = (
  | { kind: 'list'; limit: number; filters?: Readonly<Record<string, unknown>> }
  | { kind: 'get'; id: ItemId }
  | { kind: 'create'; fields: Readonly<Record<string, unknown>> }
  | { kind: 'replace'; id: ItemId; fields: Readonly<Record<string, unknown>> }
  | { kind: 'update'; id: ItemId; patch: Readonly<Record<string, unknown>> }
  | { kind: 'delete'; id: ItemId }
) & {
  collection: string;
  /** Items a write refers to: the write is refused, and nothing changes, when one is missing. */
  requires?: readonly Requirement[];
};

/** One request of the API, as its one call to the store. */
export interface EngineRequest {
  session: string;
  /** Make the session when it does not exist (an authenticated request). */
  create: boolean;
  /** The API's operation, for the faults; undefined (or empty) takes none (the admin API). */
  operationId: string | undefined;
  /** Whether the session's latency is drawn (the API's requests; not the admin API's). Default true. */
  latency?: boolean;
  /** The moment (ms) from which the operation is removed (`x-sunset`), by the session's clock. */
  sunsetMs?: number;
  /** The mock's clock now (ms): the session's clock is it plus the session's offset. */
  now: number;
  /** The store action to run when no fault or sunset stops the request. */
  action?: StoreAction;
  /**
   * A revision at which the caller already holds the answer of this read
   * (`list` or `get`): when the session's store is still at it, the read is
   * skipped and the result is `answered`, with no items. Any other revision
   * (another replica wrote since) reads as always.
   */
  known?: number;
}

export type ActionResult =
  | { kind: 'list'; items: Item[] }
  /** A read skipped: the session's store was still at the caller's `known` revision. */
  | { kind: 'answered' }
  | { kind: 'get' | 'replace' | 'update'; item: Item | undefined }
  | { kind: 'create'; item: Item }
  /** `item`: the item removed, when there was one. */
  | { kind: 'delete'; deleted: boolean; item: Item | undefined };

/** What every outcome of a request tells about its session. */
export interface SessionFacts {
  /** The session's scenario's name. */
  scenario: string;
  latency: Latency | undefined;
  /** How long the request is delayed: drawn from the session's generator, as applyLatency draws it; 0 for none. */
  delayMs: number;
  /** How far the session's clock runs from the mock's, in ms. */
  clockOffset: number;
  /** A named session this call evicted (the least recently used) to make room for its own. */
  evicted: string | undefined;
  /**
   * The session's store's revision before the call: its answers may be cached
   * under it. It changes with every write, reset or switch of the store, on
   * any replica, and never repeats (not even after the server lost its data).
   */
  revision: number;
}

export type EngineOutcome =
  /** The session does not exist and the request may not make it. */
  | { kind: 'no_session' }
  /** A scheduled fault took the request, and who scheduled it: nothing else ran. */
  | ({ kind: 'fault'; fault: TakenFault } & SessionFacts)
  /** The operation is past its sunset by the session's clock: nothing else ran. */
  | ({ kind: 'removed'; sessionNow: number } & SessionFacts)
  /** A write referred to an item the session's store does not hold: nothing changed. */
  | ({ kind: 'missing_reference'; requirement: Requirement } & SessionFacts)
  /** The store action ran (or none was asked for: `result` undefined). */
  | ({ kind: 'done'; result: ActionResult | undefined } & SessionFacts);

/** A session as listings show it. */
export interface EngineSession {
  name: string;
  scenario: string;
  /** Whether its store holds changes of its own (it shares its scenario's items until it writes). */
  copied: boolean;
  /** Entries in its journal. */
  requests: number;
  /** Faults still scheduled. */
  faults: number;
  latency: Latency | undefined;
  clockOffset: number;
  /** How many items each collection holds, by collection name. */
  counts: Record<string, number>;
}

export interface EngineJournal {
  capacity: number;
  /** Entries that made room (the journal's bound, or the mock's budget) since it was last emptied. */
  dropped: number;
  /** The oldest entries this read left out, to stay within the read limit. */
  omitted: number;
  /** Oldest first. */
  records: JournalRecord[];
}

export interface EngineStoreView {
  scenario: string;
  /** How many items the collection holds in all. */
  size: number;
  items: Item[];
}

export type { Exchange, FaultRequest, JournalRecord, ScheduledFault, Scenario };
