import { HttpError } from '../errors/http-error.js';
import { maxScheduledFaults } from '../state/fault-limits.js';
import type { FaultRequest, FaultSource, ScheduledFault, TakenFault } from '../state/state-store.js';

/**
 * The faults scheduled for one session, in the order they were added, at
 * most `max` of them. A matching request takes the first one whose draw
 * hits; a fault with a count is removed once it has hit that many requests.
 */
export class FaultPlan {
  readonly max: number;
  readonly #random: () => number;
  #faults: ScheduledFault[] = [];
  /** Who scheduled each fault still to come, by id: not part of the fault the admin API lists. */
  readonly #sources = new Map<number, FaultSource>();
  #lastId = 0;

  constructor(random: () => number, max = maxScheduledFaults) {
    this.#random = random;
    this.max = max;
  }

  /** Schedules a fault; beyond `max` faults still to come, throws `409 too_many_faults` and schedules nothing. */
  add(request: FaultRequest, source: FaultSource = 'POST /__admin/faults'): ScheduledFault {
    if (this.#faults.length >= this.max) {
      throw new HttpError(
        'too_many_faults',
        `the session already has ${this.#faults.length} faults scheduled, the most it may hold (${this.max}); DELETE /__admin/faults clears them, or give one fault a times count`,
      );
    }
    const times = request.times ?? (request.probability === undefined ? 1 : undefined);
    const fault: ScheduledFault = { id: ++this.#lastId, ...request };
    if (times === undefined) delete fault.times;
    else fault.times = times;
    this.#faults.push(fault);
    this.#sources.set(fault.id, source);
    return { ...fault };
  }

  list(): ScheduledFault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  get size(): number {
    return this.#faults.length;
  }

  clear(): number {
    const cleared = this.#faults.length;
    this.#faults = [];
    this.#sources.clear();
    return cleared;
  }

  /** No fault, and the next one added is number 1 again, as in a new plan. */
  reset(): void {
    this.#faults = [];
    this.#sources.clear();
    this.#lastId = 0;
  }

  /** The fault a request of `operationId` gets, if any, with who scheduled it; counts it against the fault's `times`. */
  take(operationId: string): TakenFault | undefined {
    if (this.#faults.length === 0) return undefined;
    for (const fault of this.#faults) {
      if (fault.operationId !== undefined && fault.operationId !== operationId) continue;
      if (fault.probability !== undefined && this.#random() >= fault.probability) continue;
      const source = this.#sources.get(fault.id) ?? 'POST /__admin/faults';
      if (fault.times !== undefined) {
        fault.times -= 1;
        if (fault.times === 0) {
          this.#faults = this.#faults.filter((other) => other !== fault);
          this.#sources.delete(fault.id);
        }
      }
      return { ...fault, source };
    }
    return undefined;
  }
}
