/** What a deadline calls when it passes. */
export interface Expiring {
  expire(): void;
}

/** One deadline of a queue: `cancel()` once what it bounds is over. */
export interface Deadline {
  cancel(): void;
}

class QueuedDeadline implements Deadline {
  constructor(
    readonly at: number,
    public target: Expiring | undefined,
    readonly queue: DeadlineQueue,
  ) {}

  cancel(): void {
    if (this.target === undefined) return;
    this.target = undefined;
    this.queue.cancelled();
  }
}

/**
 * Deadlines that all last `durationMs`, kept in the order they were set
 * (which is the order they pass), under one timer: the proxy sets one for
 * every exchange with the upstream, and a Node timer each (made, listed,
 * unlisted) cost more than the rest of the bookkeeping. A cancelled deadline
 * holds nothing (its target is dropped at once), and the queue keeps only
 * those still running, and the cancelled ones behind an older running one.
 */
export class DeadlineQueue {
  readonly #durationMs: number;
  readonly #now: () => number;
  #queued: QueuedDeadline[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(durationMs: number, now: () => number = () => performance.now()) {
    this.#durationMs = durationMs;
    this.#now = now;
  }

  /** Deadlines running (or cancelled behind an older running one). */
  get size(): number {
    return this.#queued.length - this.#head;
  }

  /** Calls `target.expire()` once `durationMs` have passed, unless the deadline is cancelled first. */
  add(target: Expiring): Deadline {
    const deadline = new QueuedDeadline(this.#now() + this.#durationMs, target, this);
    this.#queued.push(deadline);
    if (this.#timer === undefined) this.#arm(deadline.at);
    return deadline;
  }

  /** A deadline was cancelled: the cancelled ones at the head are let go. */
  cancelled(): void {
    const queued = this.#queued;
    while (this.#head < queued.length && (queued[this.#head] as QueuedDeadline).target === undefined) this.#head++;
    if (this.#head === queued.length) {
      this.#queued = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= queued.length) {
      this.#queued = queued.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(at: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, Math.ceil(at - this.#now())));
    // The exchanges the deadlines bound hold their sockets, which keep the process alive; the timer need not.
    this.#timer.unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    const now = this.#now();
    while (this.#head < this.#queued.length) {
      const deadline = this.#queued[this.#head] as QueuedDeadline;
      if (deadline.target !== undefined && deadline.at > now) break;
      this.#head++;
      const target = deadline.target;
      deadline.target = undefined;
      target?.expire();
    }
    this.cancelled();
    const next = this.#queued[this.#head];
    if (next !== undefined && this.#timer === undefined) this.#arm(next.at);
  }

  /** Stops the timer (the deadlines still running never pass). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
