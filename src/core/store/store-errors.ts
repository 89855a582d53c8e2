import { HttpError } from '../errors/http-error.js';
import { int64Max } from '../json/exact-json.js';
import type { ItemId } from './item-snapshot.js';

/**
 * Thrown by a create when the next id would lie beyond int64. An
 * `HttpError`, so that it reaches a client as a `500 id_space_exhausted`
 * Error body wherever it is thrown.
 */
export class IdSpaceExhaustedError extends HttpError {
  constructor(lastId: ItemId) {
    super('id_space_exhausted', `the next id after ${String(lastId)} would exceed the int64 maximum ${int64Max}`);
  }
}

/**
 * Thrown when a change would take a collection beyond its maximum number of
 * items; nothing is stored and nothing is evicted to make room. An
 * `HttpError` (`507 store_full`), so that the create, the admin switch and
 * start-up all report it with the same words, from here.
 */
export class StoreFullError extends HttpError {
  constructor(
    readonly maxItems: number,
    readonly wanted: number,
    /** What would not fit: `a new pet`, `scenario 'large'`, `the pets saved in FILE`. */
    readonly what: string,
    /** The collection's name (`pets`). */
    readonly collection: string,
  ) {
    super(
      'store_full',
      `${what} would make the store hold ${wanted} ${collection}, more than its maximum of ${maxItems} (--max-pets); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)`,
    );
  }
}

/**
 * Thrown when a change would take the store, or the stores of the whole
 * mock, beyond their byte budget (the items' JSON size); nothing is stored
 * and nothing is evicted. `507 store_full`, like the count limit.
 */
export class StoreBytesFullError extends HttpError {
  constructor(
    readonly maxBytes: number,
    readonly wanted: number,
    readonly what: string,
    /** Which budget: one session's store, or every session's together. */
    readonly scope: 'store' | 'mock',
    /** The collections the budget holds, every one of the store (`pets`, `pets and categories`). */
    readonly collection: string,
  ) {
    super(
      'store_full',
      scope === 'store'
        ? `${what} would make the store hold ${wanted} bytes of ${collection} (as JSON), more than its maximum of ${maxBytes} bytes (--max-store-bytes); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)`
        : `${what} would make the sessions' stores hold ${wanted} bytes of ${collection} (as JSON) together, more than the mock's maximum of ${maxBytes} bytes (--max-total-store-bytes); nothing was changed and nothing is evicted (a reset or a dropped session frees room)`,
    );
  }
}
