import { encodeText } from '../json/encode-text.js';
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

/** How many bytes a JSON text takes in UTF-8. */
export function textBytes(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two UTF-16 units of a surrogate pair are four bytes; one unit above 0x7f is two or three.
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/**
 * The item encoded last and its JSON as UTF-8 bytes. A write encodes its new
 * item to count its bytes, then answers with it: the answer's serialiser
 * takes these bytes (`encodedItem`) instead of writing and encoding the same
 * item again. An item is frozen and never changed once stored, so its bytes
 * stay true; the bytes are the answer's own (the journal keeps them), never
 * written to.
 */
let encoded: Item | undefined;
let encodedBytes: Uint8Array = new Uint8Array(0);

/** How many bytes an item takes as JSON (UTF-8): what the store's byte limits count. */
export function jsonBytes(item: Item): number {
  return textBytes(stringifyJson(item));
}

/** An item's JSON as UTF-8 bytes (their length is what the store's byte limits count), kept for the answer. */
export function encodeItem(item: Item): Uint8Array {
  encodedBytes = encodeText(stringifyJson(item));
  encoded = item;
  return encodedBytes;
}

/** The JSON bytes of `value` when it is the item encoded last (the one a write answers with); else undefined. */
export function encodedItem(value: unknown): Uint8Array | undefined {
  return value === encoded ? encodedBytes : undefined;
}

/**
 * Items handed out one at a time, each read and let go: a generator's million
 * pets, which never all exist as objects at once (build-snapshot.ts writes
 * them straight into its columns). `each` makes them afresh on every call.
 */
export interface ItemStream {
  readonly length: number;
  /**
   * Hands each item to `visit`, in order; false when the items handed out
   * turned out not to be the list (a generator that changes earlier items
   * once it has made them all): read `toArray()` instead. The object handed
   * out may be written over for the next item (a field it lacks then holds
   * `undefined`): keep its values, not the object.
   */
  each(visit: (item: Item) => void): boolean;
  /** The items as one list. */
  toArray(): readonly Item[];
}

/** Whether a list of items is a stream rather than an array. */
export function isItemStream(items: readonly Item[] | ItemStream): items is ItemStream {
  return !Array.isArray(items);
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
 * Items in ascending id order, read by position: a snapshot's items, or
 * those of one value of an indexed field. Iterable, with `at` and `forEach`,
 * like the array it stands for.
 */
export interface ItemRows extends Iterable<Item> {
  readonly length: number;
  /** The item at a position (from the end when negative), built when asked for. */
  at(index: number): Item | undefined;
  /** The id of the item at a position (0 ≤ index < length), without building the item. */
  id(index: number): ItemId;
  /** The items from `start` up to (not including) `end`. */
  slice(start: number, end: number): Item[];
  forEach(visit: (item: Item, index: number) => void): void;
}

/**
 * A scenario's items of one collection, read-only, shared by every store
 * that loads the scenario (see build-snapshot.ts): in ascending id order,
 * by id, and by the value of each indexed field. A store keeps its own
 * changes beside it (see item-collection.ts) and never copies it.
 */
export interface ItemSnapshot {
  readonly all: ItemRows;
  get(id: ItemId): Item | undefined;
  /** The items whose `field` has the value of `key`, in id order; undefined when the field has no index. */
  rowsWith(field: string, key: ValueKey): ItemRows | undefined;
  /** The JSON size of the items, in bytes. */
  readonly bytes: number;
}

/**
 * A store's own items of one collection (those it created, or put in place
 * of a scenario's), indexed like a snapshot: in ascending id order, by id,
 * and by the value of each indexed field (each bucket in id order too).
 */
export interface OwnItems {
  readonly all: Item[];
  readonly byId: Map<ItemId, Item>;
  readonly byField: Map<string, Map<ValueKey, Item[]>>;
  /** The JSON size of the items, in bytes. */
  bytes: number;
}

export function emptyOwnItems(shape: CollectionShape): OwnItems {
  return { all: [], byId: new Map(), byField: new Map(shape.indexed.map((field) => [field, new Map()])), bytes: 0 };
}

/** Adds an item whose id is above every id held. */
export function appendItem(own: OwnItems, shape: CollectionShape, item: Item, bytes: number): void {
  own.byId.set(item[shape.idField] as ItemId, item);
  own.all.push(item);
  for (const [field, buckets] of own.byField) {
    const key = valueKey(item[field]);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = [];
      buckets.set(key, bucket);
    }
    bucket.push(item);
  }
  own.bytes += bytes;
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
