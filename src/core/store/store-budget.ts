/**
 * The byte budget every store of one mock shares (issue 20: 100 sessions
 * cannot hold 100 times a store's limit). A running total: each store adds
 * what its own bytes grew or shrank by when it changes, and takes all of them
 * back when it leaves the mock (see `MemoryStore.release`), so that a write
 * reads the total at once instead of summing every session's store.
 */
export class StoreBudget {
  #charged = 0;

  constructor(readonly maxBytes: number) {}

  /** What the stores hold against the budget now: the sum of their `chargedBytes`. */
  charged(): number {
    return this.#charged;
  }

  /** A store's own bytes grew by `bytes` (shrank, when negative). */
  add(bytes: number): void {
    this.#charged += bytes;
  }
}
