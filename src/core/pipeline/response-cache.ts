import type { HandlerResult } from '../handlers/handler-types.js';

/** A response that has passed validation, serialised once. */
export interface CachedResponse {
  status: number;
  headers: Record<string, string> | undefined;
  payload: Buffer | undefined;
}

/**
 * Serialised, validated responses by the cache key their handler gave them.
 * A handler gives a key only when the key determines the body (it includes
 * the store's version, so any write makes every earlier key unreachable); the
 * first response under a key is validated and serialised, and the later ones
 * reuse those bytes. Bounded: past `capacity` entries it starts afresh.
 */
export class ResponseCache {
  readonly #capacity: number;
  #entries = new Map<string, CachedResponse>();

  constructor(capacity = 1024) {
    this.#capacity = capacity;
  }

  get(key: string): CachedResponse | undefined {
    return this.#entries.get(key);
  }

  /** Remembers a validated result, and returns it serialised. */
  remember(key: string, result: HandlerResult): CachedResponse {
    const entry = serialise(result);
    if (this.#entries.size >= this.#capacity) this.#entries.clear();
    this.#entries.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.#entries.size;
  }
}

export function serialise(result: HandlerResult): CachedResponse {
  return {
    status: result.status,
    headers: result.headers,
    payload: result.body === undefined ? undefined : Buffer.from(JSON.stringify(result.body), 'utf8'),
  };
}
