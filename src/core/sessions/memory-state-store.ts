import { HttpError } from '../errors/http-error.js';
import type { Exchange } from '../journal/request-journal.js';
import type { ScenarioCatalogue } from '../scenarios/scenario-catalogue.js';
import { missingReference } from '../state/missing-reference.js';
import { sessionClockAt } from '../state/moment-of.js';
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
  StoreState,
  StoreView,
} from '../state/state-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { ListQuery } from '../store/item-collection.js';
import { Session } from './session.js';
import { resetSession, switchScenario } from './session-actions.js';
import type { SessionRegistry } from './session-registry.js';

export interface MemoryStateStoreOptions {
  sessions: SessionRegistry;
  scenarios: ScenarioCatalogue;
  /** The mock's clock, in ms since the epoch; a session's time runs at an offset from it. */
  clock: () => number;
}

/**
 * The state port (`StateStore`) over the sessions of one process: every call
 * answers at once, with plain values (never a promise but a scenario
 * generated on demand), so that the pipeline adds no microtask for it. Its
 * methods return what the port's do without the `Awaitable`, for the
 * in-process API (`mock.faults()`, `mock.reset()`), which stays synchronous.
 */
export class MemoryStateStore implements StateStore {
  readonly #sessions: SessionRegistry;
  readonly #scenarios: ScenarioCatalogue;
  readonly #clock: () => number;

  constructor(options: MemoryStateStoreOptions) {
    this.#sessions = options.sessions;
    this.#scenarios = options.scenarios;
    this.#clock = options.clock;
  }

  /** The session a call names: the object `settle` handed out, or the one of that name, made if need be. */
  session(ref: SessionRef): Session {
    return ref instanceof Session ? ref : this.#sessions.session(ref.name);
  }

  settle(call: RequestCall): SettledRequest {
    const registry = this.#sessions;
    const session = call.make
      ? registry.session(call.session)
      : (registry.find(call.session) ?? registry.defaultSession);
    // The draws keep their order: the latency's first, then the faults' probabilities.
    const delayMs = call.latency ? session.drawDelay() : 0;
    const fault = call.operationId === undefined ? undefined : session.faults.take(call.operationId);
    const settled: SettledRequest = {
      session,
      delayMs,
      now: call.sunset === undefined ? undefined : session.now(this.#clock),
      fault,
      removed: false,
      result: undefined,
      failure: undefined,
    };
    if (fault) return settled;
    if (call.sunset !== undefined && settled.now !== undefined && settled.now >= call.sunset) {
      settled.removed = true;
      return settled;
    }
    if (call.action) {
      try {
        settled.result = perform(session.store, call.action);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        settled.failure = error;
      }
    }
    return settled;
  }

  record(ref: SessionRef, exchange: Exchange): void {
    // The session the request was settled in, even if it was dropped since: its entry leaves with it.
    (ref instanceof Session ? ref : this.#sessions.find(ref.name))?.journal.record(exchange);
  }

  storeState(ref: SessionRef): StoreState {
    return this.session(ref).state;
  }

  switchScenario(ref: SessionRef, scenario: string): Promise<StoreState> {
    return switchScenario(this.session(ref), this.#scenarios, scenario);
  }

  reset(ref: SessionRef): StoreState {
    return resetSession(this.session(ref));
  }

  readStore(ref: SessionRef, collection: string, query: ListQuery): StoreView {
    const { store } = this.session(ref);
    const items = store.collection(collection);
    return { scenario: store.scenarioName, size: items.size, items: items.list(query) };
  }

  faults(ref: SessionRef): ScheduledFault[] {
    return this.session(ref).faults.list();
  }

  addFault(ref: SessionRef, fault: FaultRequest, source: FaultSource): ScheduledFault {
    return this.session(ref).faults.add(fault, source);
  }

  clearFaults(ref: SessionRef): number {
    return this.session(ref).faults.clear();
  }

  latency(ref: SessionRef): Latency | undefined {
    return this.session(ref).latency;
  }

  setLatency(ref: SessionRef, latency: Latency | undefined): void {
    this.session(ref).latency = latency;
  }

  /**
   * A clock set close to the end of year 9999 runs on past it; it is shown as
   * that end, so that `now` stays an RFC 3339 date-time the admin API accepts
   * back (issue 36: a clock beyond it once made every read of it a 500).
   */
  clock(ref: SessionRef): SessionClock {
    return sessionClockAt(this.#clock(), this.session(ref).clockOffset);
  }

  setClock(ref: SessionRef, now: number | undefined): SessionClock {
    const machineNow = this.#clock();
    const session = this.session(ref);
    session.clockOffset = now === undefined ? 0 : now - machineNow;
    return sessionClockAt(machineNow, session.clockOffset);
  }

  journal(ref: SessionRef): JournalView {
    const { journal } = this.session(ref);
    return { capacity: journal.capacity, dropped: journal.dropped, ...journal.read() };
  }

  clearJournal(ref: SessionRef): number {
    return this.session(ref).journal.clear();
  }

  sessions(): SessionList {
    return {
      max: this.#sessions.max,
      sessions: this.#sessions.list().map((each) => ({
        name: each.name,
        scenario: each.store.scenarioName,
        counts: each.store.counts(),
        copied: each.store.isCopied,
        requests: each.journal.size,
        faults: each.faults.size,
        latency: each.latency,
      })),
    };
  }

  dropSession(name: string): boolean {
    return this.#sessions.drop(name);
  }

  health(): StateHealth {
    const { store, journal } = this.#sessions.defaultSession;
    const { budget } = journal;
    return {
      problem: store.writeProblem,
      journal: { bytes: budget.usedBytes, maxBytes: budget.maxBytes, entries: budget.entries },
    };
  }
}

/**
 * A handler's store action on a session's store, at once: a write whose
 * references (`requires`) name an item the store does not hold is refused
 * first, nothing changed, as the Redis engine does in its one call.
 */
function perform(store: MemoryStore, action: StoreAction): ActionResult {
  const revision = store.revision;
  if (action.op !== 'list' && action.op !== 'get' && action.op !== 'delete' && action.requires) {
    for (const reference of action.requires) {
      if (store.collection(reference.collection).get(reference.id) === undefined) throw missingReference(reference);
    }
  }
  if ((action.op === 'list' || action.op === 'get') && action.answered?.(revision)) {
    return { revision, items: undefined, item: undefined, found: true, answered: true };
  }
  const collection = store.collection(action.collection);
  switch (action.op) {
    case 'list':
      return { revision, items: collection.list(action.query), item: undefined, found: true };
    case 'get': {
      const item = collection.get(action.id);
      return { revision, items: undefined, item, found: item !== undefined };
    }
    case 'create':
      return { revision, items: undefined, item: collection.create(action.fields), found: true };
    case 'replace': {
      const item = collection.replace(action.id, action.fields);
      return { revision, items: undefined, item, found: item !== undefined };
    }
    case 'update': {
      const item = collection.update(action.id, action.patch);
      return { revision, items: undefined, item, found: item !== undefined };
    }
    case 'delete': {
      const item = action.returning ? collection.get(action.id) : undefined;
      return { revision, items: undefined, item, found: collection.delete(action.id) };
    }
  }
}
