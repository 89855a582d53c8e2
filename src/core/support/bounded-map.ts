/**
 * A map of at most `capacity` entries, the oldest set forgotten first (a Map
 * keeps insertion order; setting a key again makes it the newest). The
 * memos and caches of the hot path are bounded with it, so that no client
 * can grow them.
 */
export class BoundedMap<K, V, R = never> {
  readonly capacity: number;
  readonly #entries = new Map<K, V>();
  /**
   * The entry handed out last, with what it was asked for by, for the caller
   * to compare part by part before it builds a key: clients repeat the same
   * request, and a key costs a new string, its hash and a lookup, which under
   * load (caches cold between requests) cost more than the comparison.
   */
  recent: R | undefined;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }
}

/** One `BoundedMap` per owner (a compiled document, an operation), made on first use, gone with its owner. */
export class BoundedMaps<O extends object, K, V, R = never> {
  readonly #capacity: number;
  readonly #maps = new WeakMap<O, BoundedMap<K, V, R>>();
  /**
   * The owner asked for last, and its map: a mock asks for its one document's
   * map with every request, and comparing costs less than the weak map's lookup.
   * The last owner is held until another is asked for.
   */
  #lastOwner: O | undefined;
  #lastMap: BoundedMap<K, V, R> | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  of(owner: O): BoundedMap<K, V, R> {
    if (owner === this.#lastOwner) return this.#lastMap as BoundedMap<K, V, R>;
    let map = this.#maps.get(owner);
    if (!map) {
      map = new BoundedMap<K, V, R>(this.#capacity);
      this.#maps.set(owner, map);
    }
    this.#lastOwner = owner;
    this.#lastMap = map;
    return map;
  }
}
