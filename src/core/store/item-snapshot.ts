import { stringifyJson, type Int64 } from '../json/exact-json.js';

/** One stored item of a resource: its fields, exactly (int64 values a number up to 2^53−1, a bigint beyond). Frozen. */
export type Item = Readonly<Record<string, unknown>>;

/** An item's id in its one form: an `Int64` for integer ids, the text for string ids. */
export type ItemId = Int64 | string;

/** The key a field's value is indexed and compared by: the value itself, its JSON for an object, `absent` for none. */
export const absent = Symbol('absent');
export type ValueKey = string | number | bigint | boolean | null | typeof absent;

export function valueKey(value: unknown): ValueKey {
  if (value === undefined) return absent;
  if (value === null || typeof value !== 'object') return value as ValueKey;
  return stringifyJson(value);
}

/** Orders ids: integers by value (a bigint and a number compare exactly), texts by code unit. */
export function compareIds(a: ItemId, b: ItemId): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How many bytes an item takes as JSON (UTF-8): what the store's byte limits count. */
export function jsonBytes(item: Item): number {
  const text = stringifyJson(item);
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two UTF-16 units of a surrogate pair are four bytes; one unit above 0x7f is two or three.
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/** How a collection's items are identified and indexed: what the store needs to know of a resource. */
export interface CollectionShape {
  /** The resource's name (`pets`): how fixtures, state files and messages name its items. */
  name: string;
  /** One item, for messages (`pet`). */
  itemName: string;
  idField: string;
  /** Integer ids are held exactly (int64) and handed out one above the highest; string ids as decimal text. */
  idType: 'integer' | 'string';
  /** The fields lists filter by: each gets an index, so that a filtered page costs O(limit). */
  indexed: readonly string[];
}

/**
 * Items indexed for a store: in ascending id order, by id, and by the value
 * of each indexed field (each bucket in id order too). A snapshot built from
 * a scenario is shared, read-only, by every store that loads it; a store
 * keeps its own changes beside it (see item-collection.ts) and never copies it.
 */
export interface ItemSnapshot {
  readonly all: Item[];
  readonly byId: Map<ItemId, Item>;
  readonly byField: Map<string, Map<ValueKey, Item[]>>;
  /** The JSON size of the items, in bytes. */
  bytes: number;
}

export function emptySnapshot(shape: CollectionShape): ItemSnapshot {
  return { all: [], byId: new Map(), byField: new Map(shape.indexed.map((field) => [field, new Map()])), bytes: 0 };
}

/** Adds an item whose id is above every id in the snapshot. */
export function appendItem(snapshot: ItemSnapshot, shape: CollectionShape, item: Item, bytes: number): void {
  snapshot.byId.set(item[shape.idField] as ItemId, item);
  snapshot.all.push(item);
  for (const [field, buckets] of snapshot.byField) {
    const key = valueKey(item[field]);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = [];
      buckets.set(key, bucket);
    }
    bucket.push(item);
  }
  snapshot.bytes += bytes;
}

/** Where an id belongs in items sorted by id: its index, or where it would be inserted. */
export function positionOf(items: readonly Item[], idField: string, id: ItemId): { index: number; found: boolean } {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareIds((items[middle] as Item)[idField] as ItemId, id);
    if (order === 0) return { index: middle, found: true };
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return { index: low, found: false };
}

/** Puts an item in its place in a list sorted by id (replacing one with its id). */
export function placeItem(items: Item[], idField: string, item: Item): void {
  const { index, found } = positionOf(items, idField, item[idField] as ItemId);
  items.splice(index, found ? 1 : 0, item);
}

/** Takes the item with that id out of a list sorted by id. */
export function removeItem(items: Item[], idField: string, id: ItemId): void {
  const { index, found } = positionOf(items, idField, id);
  if (found) items.splice(index, 1);
}

/**
 * Indexes checked items (see check-item-list.ts): sorted by id, each frozen
 * (a copy, so a later change to the objects given cannot reach the store).
 * Throws on an id used twice, naming `what` holds them.
 */
export function buildSnapshot(items: readonly Item[], shape: CollectionShape, what: string): ItemSnapshot {
  const { idField } = shape;
  const sorted = [...items].sort((a, b) => compareIds(a[idField] as ItemId, b[idField] as ItemId));
  const snapshot = emptySnapshot(shape);
  for (let index = 0; index < sorted.length; index++) {
    const item = sorted[index] as Item;
    if (index > 0 && (sorted[index - 1] as Item)[idField] === item[idField]) {
      throw new Error(`${what} has two ${shape.name} with ${idField} ${String(item[idField])}`);
    }
    const frozen = Object.isFrozen(item) ? item : Object.freeze({ ...item });
    appendItem(snapshot, shape, frozen, jsonBytes(frozen));
  }
  return snapshot;
}
