import { parseExactJson } from '../core/json/exact-json.js';
import { BoundedMap } from '../core/support/bounded-map.js';
import type { Item } from '../core/store/item-snapshot.js';

/** Items cached by default: with `maxCachedChars`, at most 8 Mi characters of stored text and their parsed items. */
const defaultCapacity = 4096;
/** A longer stored text is parsed each time it is read (a large item is rare, and would crowd out the rest). */
const maxCachedChars = 2048;

/**
 * Each item's stored JSON text to its parsed, frozen item. A text is the
 * whole of an item (the store writes a new text for every change), so the
 * same text always parses to the same item and may be shared between
 * requests, as the memory store shares its frozen items: a list of 20
 * answered from Redis parses each item once while it stays in the cache,
 * not on every request. Parsing is exact (`parseExactJson`), so int64 ids
 * and numbers beyond 2^53 stay what the store holds. Bounded in entries
 * and in the length of each text, so that no client can grow it.
 */
export class ItemCache {
  readonly #items: BoundedMap<string, Item>;

  constructor(capacity = defaultCapacity) {
    this.#items = new BoundedMap(capacity);
  }

  /** How many items it holds now. */
  get size(): number {
    return this.#items.size;
  }

  /** The item a stored text writes, parsed once while it stays cached. */
  item(json: string): Item {
    if (json.length > maxCachedChars) return parseItem(json);
    let item = this.#items.get(json);
    if (item === undefined) {
      item = parseItem(json);
      this.#items.set(json, item);
    }
    return item;
  }
}

function parseItem(json: string): Item {
  return Object.freeze(parseExactJson(json) as Record<string, unknown>);
}
