import type { HttpError } from '../errors/http-error.js';
import type { NetworkFault } from '../http/plain-http.js';
import type { Exchange, JournalRead } from '../journal/request-journal.js';
import type { ListQuery } from '../store/item-collection.js';
import type { Item, ItemId } from '../store/item-snapshot.js';
import type { Awaitable } from '../types/awaitable.js';

/**
 * The port between the request pipeline and everything the mock shares: each
 * session's collections and id counters, the session registry (its limit
 * and least-recently-used eviction), scheduled faults, latency, each
 * session's clock, scenario switches and resets, and the journals with their
 * byte budget. The memory store (src/core/sessions/memory-state-store.ts)
 * answers every call at once; a store shared by replicas (Valkey, Redis)
 * answers with promises, and serves each request of the API in one round
 * trip (`settle`) plus the journal's append, which it may send without
 * waiting (`record`).
 *
 * A session is named by the `SessionRef` a call returned (the memory store
 * hands its session object back, a remote one a name), or by `{ name }`:
 * a control call makes the session it names if need be, as an authenticated
 * request does.
 */
export interface StateStore {
  /**
   * Settles, atomically, what one request needs of the shared state (see
   * `RequestCall`): finds or makes its session and marks it used, draws its
   * latency, takes a matching fault (counted exactly once), reads the
   * session's clock and refuses an operation past its sunset, and, when none
   * of that stops it, performs the handler's store action.
   */
  settle(call: RequestCall): Awaitable<SettledRequest>;
  /** Appends an exchange to the session's journal, within the journals' byte budget. Never waited for. */
  record(session: SessionRef, exchange: Exchange): void;

  /** The session's scenario and how many items each of its collections holds. */
  storeState(session: SessionRef): Awaitable<StoreState>;
  /** Loads a known scenario into the session's store (404 `scenario_not_found`, 507 `store_full`). */
  switchScenario(session: SessionRef, scenario: string): Awaitable<StoreState>;
  /**
   * Takes the session back to how it started: the scenario it was made with
   * and its items, no fault, the latency and clock it was made with, an empty
   * journal, its random draws from the start.
   */
  reset(session: SessionRef): Awaitable<StoreState>;
  /** The first items of one collection (what the admin API's store view shows), without using a fault or the journal. */
  readStore(session: SessionRef, collection: string, query: ListQuery): Awaitable<StoreView>;

  /** The faults still to come, in the order they were scheduled. */
  faults(session: SessionRef): Awaitable<ScheduledFault[]>;
  /**
   * Schedules a checked fault (409 `too_many_faults` beyond the most a session
   * holds), remembering who scheduled it for the Error body it makes.
   */
  addFault(session: SessionRef, fault: FaultRequest, source: FaultSource): Awaitable<ScheduledFault>;
  /** Removes every fault still to come; how many there were. */
  clearFaults(session: SessionRef): Awaitable<number>;

  /** The session's latency, if it has one. */
  latency(session: SessionRef): Awaitable<Latency | undefined>;
  /** The session's latency from now on (`undefined`: none). */
  setLatency(session: SessionRef, latency: Latency | undefined): Awaitable<void>;

  /** The session's time, and how far it is from the mock's clock. */
  clock(session: SessionRef): Awaitable<SessionClock>;
  /** Sets the session's time to `now` (ms since the epoch), running on from there; `undefined`: the mock's clock. */
  setClock(session: SessionRef, now: number | undefined): Awaitable<SessionClock>;

  /** The session's journal, newest entries within the read budget. */
  journal(session: SessionRef): Awaitable<JournalView>;
  /** Empties the session's journal; how many entries it held. */
  clearJournal(session: SessionRef): Awaitable<number>;

  /** Every session, the default one first, then the named ones, the least recently used first. */
  sessions(): Awaitable<SessionList>;
  /** Drops a named session (400 `invalid_session` for the default one); whether it existed. */
  dropSession(name: string): Awaitable<boolean>;
  /** Whether changes are refused now (the state file cannot be written), and the journals' shared budget. */
  health(): Awaitable<StateHealth>;
  /** Lets go of what the store holds open (a connection to a server); calls after it are refused. */
  close?(): Awaitable<void>;
}

/** A session, as calls name it: what `settle` returned for it, or `{ name }`. */
export interface SessionRef {
  readonly name: string;
}

/** What one request asks of the shared state. */
export interface RequestCall {
  /** The session the request names (`default` without `Petstore-Session`). */
  session: string;
  /**
   * Make the session if it does not exist and mark it used (an authenticated
   * request); otherwise the named session if it exists, or the default one,
   * untouched: a client without a key neither makes sessions nor evicts them.
   */
  make: boolean;
  /** The API's operation, for the faults; undefined takes none (the admin API, a route the proxy let through). */
  operationId: string | undefined;
  /** Whether the session's latency applies (the API's requests, not the admin API's). */
  latency: boolean;
  /** The moment (ms since the epoch) from which the operation is removed (`x-sunset`), by the session's clock. */
  sunset: number | undefined;
  /** The handler's store action, performed when no fault and no sunset stops the request. */
  action: StoreAction | undefined;
}

/** What the shared state said to a request. */
export interface SettledRequest {
  session: SessionRef;
  /** How long to wait before answering (drawn from the session's latency); 0 for none. Waited after the call. */
  delayMs: number;
  /**
   * The session's time when the call was settled, in ms since the epoch;
   * the memory state reads its clock only for a call with a `sunset` to
   * compare it with (undefined otherwise: most requests read no wall clock).
   */
  now: number | undefined;
  /** The fault taken for this request, with who scheduled it: nothing else was done. */
  fault: TakenFault | undefined;
  /** The operation is past its sunset by the session's clock: the action was not performed. */
  removed: boolean;
  /** What the action did, when it was performed and succeeded. */
  result: ActionResult | undefined;
  /** Why the action was refused (507 `store_full`, 503 `store_unavailable`, ...): nothing changed. */
  failure: HttpError | undefined;
}

/**
 * An item a write refers to (see `Reference` in describe-api.ts), checked
 * inside the same atomic call as the write: the item `id` of `collection`
 * must exist in the session's store, or the write is refused, nothing
 * changed, with `missingReference(reference)` (400 `invalid_reference`,
 * naming `field`).
 */
export interface RequiredReference {
  collection: string;
  id: ItemId;
  /** The field of the written item that holds the reference (`categoryId`). */
  field: string;
  /** One item of `collection`, for the message (`category`). */
  itemName: string;
}

/**
 * Whether the mock already holds the answer a read gives at the store's
 * revision `revision` (its response cache, see response-cache.ts). A store
 * may ask it before reading, and skip the read when it says yes (the result
 * is then `answered`, with no items); a store that does not ask reads as
 * always. The answer does not change with it: a revision names one content.
 */
export type AnsweredAt = (revision: number) => boolean;

/** What a handler asks of the store, planned from the valid request (see src/core/handlers/). */
export type StoreAction =
  | { op: 'list'; collection: string; query: ListQuery; answered?: AnsweredAt }
  | { op: 'get'; collection: string; id: ItemId; answered?: AnsweredAt }
  | {
      op: 'create';
      collection: string;
      fields: Readonly<Record<string, unknown>>;
      requires?: readonly RequiredReference[];
    }
  | {
      op: 'replace';
      collection: string;
      id: ItemId;
      fields: Readonly<Record<string, unknown>>;
      requires?: readonly RequiredReference[];
    }
  | {
      op: 'update';
      collection: string;
      id: ItemId;
      patch: Readonly<Record<string, unknown>>;
      requires?: readonly RequiredReference[];
    }
  /** `returning`: the deleted item comes back (an operation that documents a body for its answer). */
  | { op: 'delete'; collection: string; id: ItemId; returning: boolean };

/** What a store action did, for the handler's answer. */
export interface ActionResult {
  /** The store's revision before the action: a read's answer is cached under it. */
  revision: number;
  /** `list`: the page. */
  items: readonly Item[] | undefined;
  /** `get`, `create`, `replace`, `update`: the item as it is now; `delete` with `returning`: the item removed. */
  item: Item | undefined;
  /** Whether the item the action names existed (always true for `list` and `create`). */
  found: boolean;
  /** A read skipped because its `answered` said the mock holds its answer at `revision`: no items, no item. */
  answered?: true;
}

/** Simulated network latency: fixed (`min` = `max`) or drawn uniformly between the two, in milliseconds. */
export interface Latency {
  min: number;
  max: number;
}

/** The ways a connection can be broken on purpose (see the node:http adapter). */
export const faultKinds = [
  'connection_reset',
  'empty_response',
  'malformed_response',
  'timeout',
] as const satisfies readonly NetworkFault[];

/** What `POST /__admin/faults` asks for: exactly one of `status` (an HTTP error) and `fault` (a broken connection). */
export interface FaultRequest {
  /** Only requests of this operation; every operation of the API when absent. */
  operationId?: string;
  status?: number;
  fault?: NetworkFault;
  /** How many matching requests it hits (default 1, or until cleared when `probability` is given). */
  times?: number;
  /** The chance that a matching request is hit (default 1), drawn from the session's seeded generator. */
  probability?: number;
}

export interface ScheduledFault extends FaultRequest {
  id: number;
}

/** Who scheduled a fault, as its Error body names it: the admin API, or a typed call in-process. */
export type FaultSource = 'POST /__admin/faults' | 'scheduleFault()';

/** A fault a request took, and who scheduled it (which the faults listed do not show). */
export interface TakenFault extends ScheduledFault {
  source: FaultSource;
}

/**
 * What a session's store state looks like from the outside (admin API and
 * in-process): its scenario, and how many items each collection holds, by
 * the collection's name (`{ scenario: 'default', pets: 50 }`).
 */
export interface StoreState {
  scenario: string;
  [collection: string]: string | number;
}

/** One collection's first items, as the admin API's store view shows them. */
export interface StoreView {
  scenario: string;
  /** How many items the collection holds. */
  size: number;
  items: readonly Item[];
}

/** A session's clock, as the admin API shows it. */
export interface SessionClock {
  /** ISO date-time. */
  now: string;
  offsetMs: number;
}

/** A session's journal as read: its capacity, how many entries it dropped, and the newest ones that fit. */
export interface JournalView extends JournalRead {
  capacity: number;
  dropped: number;
}

/** One session, as the admin API lists it. */
export interface SessionSummary {
  name: string;
  scenario: string;
  /** Items per collection, by the collection's name. */
  counts: Record<string, number>;
  /** Whether its store changed anything since its scenario was loaded. */
  copied: boolean;
  /** Entries in its journal. */
  requests: number;
  /** Faults still to come. */
  faults: number;
  latency: Latency | undefined;
}

export interface SessionList {
  /** Named sessions kept at most, besides the default one. */
  max: number;
  sessions: SessionSummary[];
}

export interface StateHealth {
  /** Why changes are refused now (503 `store_unavailable`), or undefined. */
  problem: HttpError | undefined;
  /** The journals' shared byte budget: what they hold, and its bound. */
  journal: { bytes: number; maxBytes: number; entries: number };
  /** A store shared by replicas says what it is and whether it answers; the memory state says nothing. */
  store?: StoreReport;
}

/** A store shared by replicas, as `/__admin/health` shows it: never with a password. */
export interface StoreReport {
  /** `redis`. */
  kind: string;
  /** Its URL without the password (`redis://host:6379/2`). */
  url: string;
  /** What every key starts with (`--store-prefix`). */
  prefix: string;
  reachable: boolean;
  /** Since when it has answered, or not (ISO 8601). */
  since: string;
  /** Why it does not answer. */
  reason?: string;
  /** What the server keeps across its own restart, in one sentence. */
  persistence?: string;
}
