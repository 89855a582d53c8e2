import { checkTypedFault, checkTypedLatency } from './admin/session-controls.js';
import type { RequestJournal } from './journal/request-journal.js';
import type { CompiledDocument } from './openapi/compile-document.js';
import type { MemoryStateStore } from './sessions/memory-state-store.js';
import type { Session } from './sessions/session.js';
import { momentOf } from './state/moment-of.js';
import type {
  FaultRequest,
  JournalView,
  Latency,
  ScheduledFault,
  SessionRef,
  StateStore,
  StoreState,
  StoreView,
} from './state/state-store.js';
import type { MemoryStore } from './store/memory-store.js';

/** The in-process face of one session: what the admin API does, as typed calls. */
export interface SessionApi {
  /**
   * The session's store, one collection at a time, by its name in the
   * document: `store.collection('pets').list({ limit: 20 })`, `.get(id)`,
   * `.create(fields)`, `.all()`, `.size` (typed where the caller knows the
   * items: `store.collection<ExactPet>('pets')`).
   */
  readonly store: MemoryStore;
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

/**
 * The in-process face of the session `of()` gives, over the memory state:
 * each call is the admin API's, through the same state port and the same
 * checks, answered at once.
 */
export function createSessionApi(
  /** The memory state, once the mock is ready. */
  stateOf: () => MemoryStateStore,
  of: () => Session,
  compiled: CompiledDocument,
  clock: () => number,
): SessionApi {
  return {
    get store() {
      return of().store;
    },
    get journal() {
      return of().journal;
    },
    get scenario() {
      return of().store.scenarioName;
    },
    switchScenario: async (name) => stateOf().switchScenario(of(), name),
    scheduleFault: (fault) => stateOf().addFault(of(), checkTypedFault(fault, compiled), 'scheduleFault()'),
    faults: () => stateOf().faults(of()),
    clearFaults: () => stateOf().clearFaults(of()),
    setLatency: (latency) => {
      stateOf().setLatency(of(), checkTypedLatency(latency));
      return { min: latency.min, max: latency.max };
    },
    reset: () => stateOf().reset(of()),
    setNow: (now) => {
      stateOf().setClock(of(), now === undefined ? undefined : momentOf(now, 'now'));
    },
    now: () => of().now(clock),
  };
}

/** Which items of a collection `AsyncSessionApi.items()` reads: a page size, filters. */
export interface ItemsQuery {
  /** The most items returned, in id order. Default 100. */
  limit?: number;
  /** Field → value the items must have (`{ status: 'sold' }`). */
  filters?: Readonly<Record<string, unknown>>;
}

/**
 * The in-process face of one session of a mock whose state is shared by
 * replicas (`createMock({ store: 'redis://…' })`): the calls of `SessionApi`
 * under the same names, each answered by the shared store and so returning a
 * promise, checked and refused as the admin API refuses them. What
 * `SessionApi` holds as objects (`store`, `journal`, `scenario`) are calls
 * here (`items()`, `journal()`, `scenario()`): the data lives on the server.
 */
export interface AsyncSessionApi {
  /** The session's name (`default` for the mock itself). */
  readonly name: string;
  /** The current scenario's name. */
  scenario(): Promise<string>;
  /** The scenario and how many items each collection holds, as `POST /__admin/reset` answers. */
  state(): Promise<StoreState>;
  /**
   * The first items of a collection of the document, by its name (`pets`),
   * as `GET /__admin/store?resource=pets` reads them: no fault is used,
   * nothing is journaled.
   */
  items(collection: string, query?: ItemsQuery): Promise<StoreView>;
  /** The journal, as `GET /__admin/requests`: the newest entries within the read budget, keys redacted. */
  journal(): Promise<JournalView>;
  /** Empties the journal, as `DELETE /__admin/requests`; how many entries it held. */
  clearJournal(): Promise<number>;
  switchScenario(name: string): Promise<StoreState>;
  /** As `SessionApi.scheduleFault`: counted across every replica, so a fault for one request fires once. */
  scheduleFault(fault: FaultRequest): Promise<ScheduledFault>;
  faults(): Promise<ScheduledFault[]>;
  clearFaults(): Promise<number>;
  /** The session's latency, as `GET /__admin/latency` (undefined: none). */
  latency(): Promise<Latency | undefined>;
  setLatency(latency: Latency): Promise<Latency>;
  reset(): Promise<StoreState>;
  setNow(now: string | number | Date | undefined): Promise<void>;
  /** The session's time, in ms since the epoch. */
  now(): Promise<number>;
}

/**
 * The in-process face of the session `ref` names, over any state store (the
 * port only): each call is the admin API's, through the same checks.
 */
export function createAsyncSessionApi(
  /** The state, once the mock is ready (the first call waits for `ready`). */
  stateOf: () => Promise<StateStore>,
  ref: SessionRef,
  compiled: CompiledDocument,
): AsyncSessionApi {
  return {
    name: ref.name,
    scenario: async () => (await (await stateOf()).storeState(ref)).scenario,
    state: async () => (await stateOf()).storeState(ref),
    items: async (collection, query = {}) =>
      (await stateOf()).readStore(ref, collection, {
        limit: query.limit ?? 100,
        ...(query.filters ? { filters: query.filters } : {}),
      }),
    journal: async () => (await stateOf()).journal(ref),
    clearJournal: async () => (await stateOf()).clearJournal(ref),
    switchScenario: async (name) => (await stateOf()).switchScenario(ref, name),
    scheduleFault: async (fault) =>
      (await stateOf()).addFault(ref, checkTypedFault(fault, compiled), 'scheduleFault()'),
    faults: async () => (await stateOf()).faults(ref),
    clearFaults: async () => (await stateOf()).clearFaults(ref),
    latency: async () => (await stateOf()).latency(ref),
    setLatency: async (latency) => {
      const checked = checkTypedLatency(latency);
      await (await stateOf()).setLatency(ref, checked);
      return { min: latency.min, max: latency.max };
    },
    reset: async () => (await stateOf()).reset(ref),
    setNow: async (now) => {
      const moment = now === undefined ? undefined : momentOf(now, 'now');
      await (await stateOf()).setClock(ref, moment);
    },
    now: async () => Date.parse((await (await stateOf()).clock(ref)).now),
  };
}
