import type { SerialisedResponse } from './serialise-response.js';

/**
 * Serialised, validated responses by the cache key their handler gave them.
 * A handler gives a key only when the key determines the response (it holds
 * the store's revision, so any write makes every earlier key unreachable);
 * the first response under a key is validated and serialised, and the later
 * ones reuse those bytes. Bounded: past `capacity` entries it starts afresh.
 */
export class ResponseCache {
  readonly #capacity: number;
  #entries = new Map<string, SerialisedResponse>();

  constructor(capacity = 1024) {
    this.#capacity = capacity;
  }

  get(key: string): SerialisedResponse | undefined {
    return this.#entries.get(key);
  }

  remember(key: string, response: SerialisedResponse): void {
    if (this.#entries.size >= this.#capacity) this.#entries.clear();
    this.#entries.set(key, response);
  }

  get size(): number {
    return this.#entries.size;
  }
}
