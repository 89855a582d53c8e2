import { RequestJournal, type JournalBudget } from '../journal/request-journal.js';
import { createSeededRandom } from '../support/random.js';
import type { CollectionShape } from '../store/item-snapshot.js';
import { MemoryStore } from '../store/memory-store.js';
import type { StoreBudget } from '../store/store-budget.js';
import type { RevisionCounter } from '../store/revision-counter.js';
import type { Scenario } from '../store/scenario.js';
import type { Latency, StoreState } from '../state/state-store.js';
import { FaultPlan } from './fault-plan.js';

export interface SessionOptions {
  name: string;
  scenario: Scenario;
  /** The document's collections (see collection-shapes.ts). */
  shapes: readonly CollectionShape[];
  /** The most items a collection of the session's store holds (`--max-pets`). */
  maxPets: number;
  /** The most bytes of items (as JSON) the session's store holds. Default: no limit. */
  maxBytes?: number;
  /** The byte budget every session's store shares. Default: none. */
  budget?: StoreBudget;
  revisions: RevisionCounter;
  journalSize: number;
  /** The bytes every session's journal holds together, shared. Default: the journal's own. */
  journalBudget?: JournalBudget;
  latency: Latency | undefined;
  /** The mock's seed: the session's draws (latency, faults) start from it and the session's name. */
  seed: number;
  /** How far the session's clock is from the mock's (ms): what `--now` or the admin clock set. Default 0. */
  clockOffset?: number;
}

/** A number from a name (FNV-1a), so that each session draws its own repeatable sequence. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * Everything that belongs to one client of the mock: its store (and so its
 * scenario), its journal, its faults, its latency and its random draws. The
 * state of the mock lives here and nowhere else. A new session points at its
 * scenario's shared items and keeps only its own changes beside them.
 */
export class Session {
  readonly name: string;
  readonly store: MemoryStore;
  readonly journal: RequestJournal;
  readonly faults: FaultPlan;
  /** Seeded by the mock's seed and the session's name: a run repeats its draws (and a reset starts them again). */
  readonly random: () => number;
  latency: Latency | undefined;
  /**
   * How far the session's clock runs from the mock's, in ms: a team sees its
   * app on another day (after an operation's sunset, say). See `now`.
   */
  clockOffset: number;
  /** What the session started with, for `reset()`: the scenario, latency and clock it was made with. */
  readonly #start: { scenario: Scenario; latency: Latency | undefined; seed: number; clockOffset: number };
  #draw: () => number;

  constructor(options: SessionOptions) {
    this.name = options.name;
    this.store = new MemoryStore({
      shapes: options.shapes,
      maxItems: options.maxPets,
      revisions: options.revisions,
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      ...(options.budget ? { budget: options.budget } : {}),
    });
    this.store.load(options.scenario);
    this.journal = new RequestJournal(options.journalSize, undefined, options.journalBudget);
    const seed = (options.seed ^ hashName(options.name)) >>> 0;
    this.clockOffset = options.clockOffset ?? 0;
    this.#start = { scenario: options.scenario, latency: options.latency, seed, clockOffset: this.clockOffset };
    this.#draw = createSeededRandom(seed);
    this.random = () => this.#draw();
    this.faults = new FaultPlan(this.random);
    this.latency = options.latency;
  }

  get state(): StoreState {
    return { scenario: this.store.scenarioName, ...this.store.counts() };
  }

  /**
   * How long to wait before answering a request of the API: the session's
   * latency, fixed or drawn between its bounds from the session's seeded
   * draws; 0 without one.
   */
  drawDelay(): number {
    const { latency } = this;
    if (!latency || latency.max <= 0) return 0;
    return latency.min + this.random() * (latency.max - latency.min);
  }

  /** The session's time, in ms since the epoch: the mock's clock plus the session's offset. */
  now(clock: () => number): number {
    return clock() + this.clockOffset;
  }

  /**
   * The session leaves the mock (dropped, or evicted as the least recently
   * used): its journal's entries leave the journal budget, and its store's own
   * items the store budget, which every session shares.
   */
  leave(): void {
    this.journal.clear();
    this.store.release();
  }

  /**
   * Takes the session back to how it started, as if it had just been made:
   * the scenario it was made with (not one switched to since) and that
   * scenario's items, no fault (used or not), the latency and clock it was
   * made with (not ones set since), an empty journal, and its random draws from the
   * start. Its name, and the mock's options, stay.
   */
  reset(): StoreState {
    this.store.load(this.#start.scenario);
    this.faults.reset();
    this.latency = this.#start.latency;
    this.clockOffset = this.#start.clockOffset;
    this.journal.clear();
    this.#draw = createSeededRandom(this.#start.seed);
    return this.state;
  }
}
