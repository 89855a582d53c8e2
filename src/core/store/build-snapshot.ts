import { stringifyJson } from '../json/exact-json.js';
import { setOwnField } from '../support/own-field.js';
import {
  absent,
  compareIds,
  type CollectionShape,
  type Item,
  type ItemId,
  type ItemRows,
  type ItemSnapshot,
  type ItemStream,
  textBytes,
  valueKey,
  type ValueKey,
} from './item-snapshot.js';

/** Codes of a column: one a row, as narrow as the number of distinct values allows. */
type Codes = Uint8Array | Uint16Array | Uint32Array;

/** One field of the items other than the id: each row's value as a code into the field's distinct values. */
interface Column {
  name: string;
  codes: Codes;
  /** The distinct values (texts, numbers, bigints, booleans, null), or one value a row for objects. */
  values: unknown[];
}

/** Which fields a row has, in its item's order: column positions, `idColumn` for the id. */
type Layout = readonly number[];
const idColumn = -1;

function narrowest(codes: Uint32Array, distinct: number): Codes {
  if (distinct <= 0x100) return Uint8Array.from(codes);
  if (distinct <= 0x10000) return Uint16Array.from(codes);
  return codes;
}

/**
 * A scenario's items in columns instead of objects: the ids in one typed
 * array (`Float64Array` when every id is a safe integer, which holds each
 * exactly; a plain array when some id is a bigint or a text), each other
 * field as a code a row into its distinct values (a name, a state, a
 * reference: a few hundred values for a million pets), and each row's field
 * order as a code into the few orders the items use. An item is built, frozen,
 * when it is read. A million pets take about 20 MB here, against about 300 MB
 * as frozen objects with a `Map` by id (V8 gives every frozen object whose
 * numbers it keeps as doubles a hidden class of its own). Found by id with a
 * binary search; each indexed field's rows of one value kept as row numbers.
 */
class CompactSnapshot implements ItemSnapshot {
  readonly all: ItemRows;
  readonly bytes: number;
  /** How many items it holds. */
  readonly count: number;
  readonly #idField: string;
  readonly #ids: Float64Array | ItemId[];
  readonly #columns: Column[];
  readonly #layouts: Layout[];
  readonly #layoutCodes: Codes;
  readonly #index: Map<string, Map<ValueKey, Uint32Array>>;

  constructor(parts: {
    idField: string;
    ids: Float64Array | ItemId[];
    columns: Column[];
    layouts: Layout[];
    layoutCodes: Codes;
    index: Map<string, Map<ValueKey, Uint32Array>>;
    bytes: number;
  }) {
    this.#idField = parts.idField;
    this.#ids = parts.ids;
    this.#columns = parts.columns;
    this.#layouts = parts.layouts;
    this.#layoutCodes = parts.layoutCodes;
    this.#index = parts.index;
    this.bytes = parts.bytes;
    this.count = parts.ids.length;
    this.all = new SnapshotRows(this, undefined);
  }

  /** The id of row `row`. */
  idAt(row: number): ItemId {
    return this.#ids[row] as ItemId;
  }

  /** The item of row `row`, built and frozen. */
  itemAt(row: number): Item {
    const item: Record<string, unknown> = {};
    const layout = this.#layouts[this.#layoutCodes[row] as number] as Layout;
    for (const position of layout) {
      if (position === idColumn) {
        setOwnField(item, this.#idField, this.#ids[row]);
      } else {
        const column = this.#columns[position] as Column;
        setOwnField(item, column.name, column.values[column.codes[row] as number]);
      }
    }
    return Object.freeze(item);
  }

  get(id: ItemId): Item | undefined {
    const ids = this.#ids;
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compareIds(ids[middle] as ItemId, id);
      if (order === 0) return this.itemAt(middle);
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return undefined;
  }

  rowsWith(field: string, key: ValueKey): ItemRows | undefined {
    const buckets = this.#index.get(field);
    if (!buckets) return undefined;
    return new SnapshotRows(this, buckets.get(key) ?? new Uint32Array(0));
  }
}

/** Rows of a compact snapshot: every row, or those `positions` name (in id order). */
class SnapshotRows implements ItemRows {
  readonly length: number;
  readonly #snapshot: CompactSnapshot;
  readonly #positions: Uint32Array | undefined;

  constructor(snapshot: CompactSnapshot, positions: Uint32Array | undefined) {
    this.#snapshot = snapshot;
    this.#positions = positions;
    this.length = positions ? positions.length : snapshot.count;
  }

  #row(index: number): number {
    return this.#positions ? (this.#positions[index] as number) : index;
  }

  id(index: number): ItemId {
    return this.#snapshot.idAt(this.#row(index));
  }

  at(index: number): Item | undefined {
    const position = index < 0 ? this.length + index : index;
    if (position < 0 || position >= this.length) return undefined;
    return this.#snapshot.itemAt(this.#row(position));
  }

  slice(start: number, end: number): Item[] {
    const items: Item[] = [];
    const last = Math.min(end, this.length);
    for (let index = Math.max(0, start); index < last; index++) items.push(this.#snapshot.itemAt(this.#row(index)));
    return items;
  }

  forEach(visit: (item: Item, index: number) => void): void {
    for (let index = 0; index < this.length; index++) visit(this.#snapshot.itemAt(this.#row(index)), index);
  }

  *[Symbol.iterator](): Iterator<Item> {
    for (let index = 0; index < this.length; index++) yield this.#snapshot.itemAt(this.#row(index));
  }
}

/** The items sorted by id (the same list when it already is, as generated and saved lists are). */
function sortedById(items: readonly Item[], idField: string): readonly Item[] {
  for (let index = 1; index < items.length; index++) {
    if (compareIds((items[index - 1] as Item)[idField] as ItemId, (items[index] as Item)[idField] as ItemId) > 0) {
      return [...items].sort((a, b) => compareIds(a[idField] as ItemId, b[idField] as ItemId));
    }
  }
  return items;
}

/** Whether two lists of field names are the same, in the same order. */
function sameNames(names: readonly string[], others: readonly string[] | undefined): boolean {
  if (others === undefined || names.length !== others.length) return false;
  for (let at = 0; at < names.length; at++) if (names[at] !== others[at]) return false;
  return true;
}

/** 10^1 to 10^15: a safe integer's digits are counted against them. */
const powersOfTen = Array.from({ length: 15 }, (_, power) => 10 ** (power + 1));

/** How many characters a number takes in JSON: counted for a safe integer, without writing it. */
function digitsOf(value: number): number {
  if (!Number.isSafeInteger(value)) return String(value).length;
  // How many powers of ten the size reaches, found by halves.
  const size = Math.abs(value);
  let low = 0;
  let high = powersOfTen.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((powersOfTen[middle] as number) <= size) low = middle + 1;
    else high = middle;
  }
  return value < 0 ? low + 2 : low + 1;
}

/** The bytes `"name":` takes in an item's JSON. */
const keyBytes = (name: string): number => textBytes(JSON.stringify(name)) + 1;

/** Numbers keys 0, 1, 2… in the order they are first met, each with what `make` gave for it (`made[number]`). */
class Numbering<Key, Made> {
  readonly made: Made[] = [];
  readonly #numbers = new Map<Key, number>();

  numberOf(key: Key, make: (key: Key) => Made): number {
    let number = this.#numbers.get(key);
    if (number === undefined) {
      number = this.made.length;
      this.#numbers.set(key, number);
      this.made.push(make(key));
    }
    return number;
  }
}

/** A key that is its own `made` (see `Numbering`). */
const itself = <Key>(key: Key): Key => key;

/** Field names in an item's order, their columns (`idColumn` for the id), and the layout they make. */
interface FieldOrder {
  names: readonly string[];
  positions: readonly number[];
  code: number;
}

/** How many field orders a snapshot remembers while it is filled: items of a generator alternate between a few. */
const ordersKept = 8;

/** An item the stream handed out below the one before it: its items are read again as one sorted list. */
class OutOfOrder extends Error {}

/**
 * Indexes checked items (see check-item-list.ts) into a compact snapshot:
 * in id order, each read as a new frozen item (nothing of the objects given
 * is kept but the values of their fields, so a later change to those objects
 * cannot reach the store). Throws on an id used twice, naming `what` holds them.
 *
 * `more` are items after `given` (a generator's, in ascending id order above
 * the given ones), written into the columns one at a time as they are made,
 * so that they never all exist as objects; out of order, they are read again
 * as one list and sorted with the others.
 */
export function buildSnapshot(
  given: readonly Item[],
  shape: CollectionShape,
  what: string,
  more?: ItemStream,
): ItemSnapshot {
  const items = sortedById(given, shape.idField);
  if (!more || more.length === 0) return fill(shape, what, items.length, (add) => items.forEach(add));
  try {
    let complete = true;
    const snapshot = fill(shape, what, items.length + more.length, (add) => {
      items.forEach(add);
      complete = more.each(add);
    });
    if (complete) return snapshot;
  } catch (error) {
    if (!(error instanceof OutOfOrder)) throw error;
  }
  return buildSnapshot(items.concat(more.toArray()), shape, what);
}

/** A compact snapshot of `count` items, handed to `add` by `feed` in ascending id order. */
function fill(
  shape: CollectionShape,
  what: string,
  count: number,
  feed: (add: (item: Item) => void) => void,
): ItemSnapshot {
  const { idField } = shape;
  let ids: Float64Array | ItemId[] = new Float64Array(count);
  /** Each column's distinct values, their codes, and the bytes of each one's `"name":value` pair (objects: per row). */
  const newColumn = (name: string) => ({
    name,
    codes: new Uint32Array(count),
    values: [] as unknown[],
    known: new Map<unknown, number>(),
    pairBytes: [] as number[],
  });
  const columns = new Numbering<string, ReturnType<typeof newColumn>>();
  const layouts = new Numbering<string, Layout>();
  const layoutCodeOf = (positions: readonly number[]): number =>
    layouts.numberOf(positions.join(','), () => Object.freeze([...positions]));
  const layoutCodes = new Uint32Array(count);
  const idKeyBytes = keyBytes(idField);
  let bytes = 0;
  /** The field orders met so far (up to `ordersKept`), each with its columns and layout; `order` the last one. */
  const orders: FieldOrder[] = [];
  let order: FieldOrder | undefined;
  let row = 0;
  const add = (item: Item): void => {
    const id = item[idField] as ItemId;
    if (row > 0) {
      const order = compareIds(ids[row - 1] as ItemId, id);
      if (order === 0) throw new Error(`${what} has two ${shape.name} with ${idField} ${String(id)}`);
      if (order > 0) throw new OutOfOrder();
    }
    if (typeof id !== 'number' && ids instanceof Float64Array) ids = Array.from(ids) as ItemId[];
    ids[row] = id as never;
    bytes += idKeyBytes + (typeof id === 'number' ? digitsOf(id) : textBytes(stringifyJson(id)));
    // Items have one of a few field orders (a generator's leave an optional state out now and then): each
    // order's columns are looked up once.
    const names = Object.keys(item);
    if (order === undefined || !sameNames(names, order.names)) {
      order = orders.find((each) => sameNames(names, each.names));
      if (order === undefined) {
        const positions = names.map((name) => (name === idField ? idColumn : columns.numberOf(name, newColumn)));
        order = { names, positions, code: layoutCodeOf(positions) };
        if (orders.length < ordersKept) orders.push(order);
      }
    }
    const { positions, code: orderCode } = order;
    let fields = 0;
    for (let at = 0; at < names.length; at++) {
      const position = positions[at] as number;
      const value = item[names[at] as string];
      if (value === undefined) continue;
      fields++;
      if (position === idColumn) continue;
      const column = columns.made[position] as (typeof columns.made)[number];
      if (value !== null && typeof value === 'object') {
        // An object or array (or an exact number literal) is kept as given, one a row.
        column.codes[row] = column.values.length;
        column.values.push(value);
        bytes += keyBytes(column.name) + textBytes(stringifyJson(value));
        continue;
      }
      let code = column.known.get(value);
      if (code === undefined) {
        code = column.values.length;
        column.known.set(value, code);
        column.values.push(value);
        column.pairBytes[code] = keyBytes(column.name) + textBytes(stringifyJson(value));
      }
      column.codes[row] = code;
      bytes += column.pairBytes[code] as number;
    }
    // `{`, `}` and the commas between the fields.
    bytes += 2 + Math.max(0, fields - 1);
    // A field left undefined is no field: such a row's layout is its own.
    layoutCodes[row] =
      fields === names.length
        ? orderCode
        : layoutCodeOf(positions.filter((_, at) => item[names[at] as string] !== undefined));
    row++;
  };
  feed(add);
  if (row !== count) throw new Error(`${what}: ${count} ${shape.name} were announced, ${row} were made`);
  const finished = columns.made.map(({ name, codes, values }) => ({
    name,
    codes: narrowest(codes, values.length),
    values,
  }));
  const narrowLayoutCodes = narrowest(layoutCodes, layouts.made.length);
  const index = new Map<string, Map<ValueKey, Uint32Array>>();
  for (const field of shape.indexed) {
    const position = finished.findIndex(({ name }) => name === field);
    index.set(field, rowsByValue(finished[position], position, layouts.made, narrowLayoutCodes));
  }
  return new CompactSnapshot({
    idField,
    ids,
    columns: finished,
    layouts: layouts.made,
    layoutCodes: narrowLayoutCodes,
    index,
    bytes,
  });
}

/**
 * An indexed field's rows by the key of their value (`absent` for a row
 * without the field), each in row order: counted from the column's codes
 * once every row is written, two passes over typed arrays rather than a
 * growing list a value.
 */
function rowsByValue(
  column: Column | undefined,
  position: number,
  layouts: readonly Layout[],
  layoutCodes: Codes,
): Map<ValueKey, Uint32Array> {
  const count = layoutCodes.length;
  const rows = new Map<ValueKey, Uint32Array>();
  if (column === undefined) {
    if (count > 0)
      rows.set(
        absent,
        Uint32Array.from({ length: count }, (_, row) => row),
      );
    return rows;
  }
  // Each distinct key gets a number; each code (a value, or an object's row) the number of its key.
  const keys = new Numbering<ValueKey, ValueKey>();
  const keyOfCode = Uint32Array.from(column.values, (value) => keys.numberOf(valueKey(value), itself));
  const hasField = layouts.map((layout) => layout.includes(position));
  const absentNumber = hasField.every(Boolean) ? -1 : keys.numberOf(absent, itself);
  const keyOfRow = new Uint32Array(count);
  const sizes = new Uint32Array(keys.made.length);
  for (let row = 0; row < count; row++) {
    const key = hasField[layoutCodes[row] as number]
      ? (keyOfCode[column.codes[row] as number] as number)
      : absentNumber;
    keyOfRow[row] = key;
    sizes[key] = (sizes[key] as number) + 1;
  }
  const buckets = keys.made.map((_, number) => new Uint32Array(sizes[number] as number));
  const filled = new Uint32Array(keys.made.length);
  for (let row = 0; row < count; row++) {
    const key = keyOfRow[row] as number;
    (buckets[key] as Uint32Array)[filled[key] as number] = row;
    filled[key] = (filled[key] as number) + 1;
  }
  keys.made.forEach((key, number) => {
    if ((sizes[number] as number) > 0) rows.set(key, buckets[number] as Uint32Array);
  });
  return rows;
}
