/** Where the exploration is: generating sequences, or shrinking one that failed. */
export type ExplorationPhase = 'exploring' | 'shrinking';

export interface ExplorationBounds {
  /** Requests for exploring (the budget). */
  requests: number;
  /** Requests for shrinking a failure: twice the budget, a quarter of it for the pass that drops commands. */
  shrinkingRequests: number;
  /** Exploring stops this long after the start. */
  exploringMs: number;
  /** Shrinking stops this long after the start (a failure proven late by the settle window shrinks slowly). */
  totalMs: number;
}

export type Exhausted = 'requests' | 'time';

/**
 * The exploration's bounds: `--budget N` requests for exploring, twice as
 * many for shrinking a failure, and a time bound on each phase (the settle
 * window can make a sequence slow to judge). Every request of the
 * exploration is spent here before it is sent.
 */
export class ExplorationBudget {
  phase: ExplorationPhase = 'exploring';
  readonly used: Record<ExplorationPhase, number> = { exploring: 0, shrinking: 0 };
  /** Which bound stopped a phase, if one did. */
  readonly exhausted: Partial<Record<ExplorationPhase, Exhausted>> = {};
  readonly #clock: () => number;
  readonly #started: number;
  /** Shrinking requests held back for its last step (the pass that drops commands). */
  heldForLastStep = 0;
  /** Exploring requests held back for the run's end (which reads back what the run wrote, oldest first). */
  heldForAudit = 0;

  /** `clock`: milliseconds on a monotonic clock (performance.now() unless told), which the time bounds are kept on. */
  constructor(
    readonly bounds: ExplorationBounds,
    clock: () => number = () => performance.now(),
  ) {
    this.#clock = clock;
    this.#started = clock();
  }

  get elapsedMs(): number {
    return this.#clock() - this.#started;
  }

  /** Requests the current phase may still send (0 once its time is up). */
  left(): number {
    const deadline = this.phase === 'exploring' ? this.bounds.exploringMs : this.bounds.totalMs;
    if (this.elapsedMs > deadline) return 0;
    const bound =
      this.phase === 'exploring'
        ? this.bounds.requests - this.heldForAudit
        : this.bounds.shrinkingRequests - this.heldForLastStep;
    return Math.max(0, bound - this.used[this.phase]);
  }

  /** Whether `count` more requests fit; when not, the phase is marked as stopped by its bound. */
  allows(count: number): boolean {
    if (this.left() >= count) return true;
    const deadline = this.phase === 'exploring' ? this.bounds.exploringMs : this.bounds.totalMs;
    this.exhausted[this.phase] ??= this.elapsedMs > deadline ? 'time' : 'requests';
    return false;
  }

  spend(): void {
    this.used[this.phase] += 1;
  }
}
