import { checkTypedFault, checkTypedLatency } from './admin/session-controls.js';
import type { RequestJournal } from './journal/request-journal.js';
import type { CompiledDocument } from './openapi/compile-document.js';
import type { MemoryStateStore } from './sessions/memory-state-store.js';
import type { Session } from './sessions/session.js';
import { momentOf } from './state/moment-of.js';
import type { FaultRequest, Latency, ScheduledFault, StoreState } from './state/state-store.js';
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
