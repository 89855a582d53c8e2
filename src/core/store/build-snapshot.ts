import { stringifyJson } from '../json/exact-json.js';
import { setOwnField } from '../support/own-field.js';
import {
  compareIds,
  type CollectionShape,
  type Item,
  type ItemId,
  type ItemRows,
  type ItemSnapshot,
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

/** The bytes `"name":` takes in an item's JSON. */
const keyBytes = (name: string): number => textBytes(JSON.stringify(name)) + 1;

/**
 * Indexes checked items (see check-item-list.ts) into a compact snapshot:
 * in id order, each read as a new frozen item (nothing of the objects given
 * is kept but the values of their fields, so a later change to those objects
 * cannot reach the store). Throws on an id used twice, naming `what` holds them.
 */
export function buildSnapshot(given: readonly Item[], shape: CollectionShape, what: string): ItemSnapshot {
  const { idField } = shape;
  const items = sortedById(given, idField);
  const count = items.length;
  const numericIds = items.every((item) => typeof item[idField] === 'number');
  const ids: Float64Array | ItemId[] = numericIds ? new Float64Array(count) : new Array<ItemId>(count);
  const columns: Array<{ name: string; codes: Uint32Array; values: unknown[]; known: Map<unknown, number> }> = [];
  const columnOf = new Map<string, number>();
  /** The bytes of each column's `"name":value` pair, by code (objects: per row, not kept). */
  const pairBytes: number[][] = [];
  const layouts: Layout[] = [];
  const layoutOf = new Map<string, number>();
  const layoutCodes = new Uint32Array(count);
  const idKeyBytes = keyBytes(idField);
  let bytes = 0;
  let lastLayout: number[] = [];
  let lastCode = -1;
  const scratch: number[] = [];
  for (let row = 0; row < count; row++) {
    const item = items[row] as Item;
    const id = item[idField] as ItemId;
    if (row > 0 && ids[row - 1] === id) throw new Error(`${what} has two ${shape.name} with ${idField} ${String(id)}`);
    ids[row] = id as never;
    scratch.length = 0;
    let fields = 0;
    bytes += idKeyBytes + (typeof id === 'string' ? textBytes(stringifyJson(id)) : String(id).length);
    for (const name of Object.keys(item)) {
      const value = item[name];
      if (value === undefined) continue;
      fields++;
      if (name === idField) {
        scratch.push(idColumn);
        continue;
      }
      let position = columnOf.get(name);
      if (position === undefined) {
        position = columns.length;
        columnOf.set(name, position);
        columns.push({ name, codes: new Uint32Array(count), values: [], known: new Map() });
        pairBytes.push([]);
      }
      scratch.push(position);
      const column = columns[position] as (typeof columns)[number];
      const pairs = pairBytes[position] as number[];
      if (value !== null && typeof value === 'object') {
        // An object or array (or an exact number literal) is kept as given, one a row.
        column.codes[row] = column.values.length;
        column.values.push(value);
        bytes += keyBytes(name) + textBytes(stringifyJson(value));
        continue;
      }
      let code = column.known.get(value);
      if (code === undefined) {
        code = column.values.length;
        column.known.set(value, code);
        column.values.push(value);
        pairs[code] = keyBytes(name) + textBytes(stringifyJson(value));
      }
      column.codes[row] = code;
      bytes += pairs[code] as number;
    }
    // `{`, `}` and the commas between the fields.
    bytes += 2 + Math.max(0, fields - 1);
    if (scratch.length !== lastLayout.length || scratch.some((position, index) => lastLayout[index] !== position)) {
      const key = scratch.join(',');
      let code = layoutOf.get(key);
      if (code === undefined) {
        code = layouts.length;
        layoutOf.set(key, code);
        layouts.push(Object.freeze([...scratch]));
      }
      lastCode = code;
      lastLayout = [...scratch];
    }
    layoutCodes[row] = lastCode;
  }
  const index = new Map<string, Map<ValueKey, Uint32Array>>();
  for (const field of shape.indexed) {
    const rows = new Map<ValueKey, number[]>();
    for (let row = 0; row < count; row++) {
      const key = valueKey((items[row] as Item)[field]);
      let bucket = rows.get(key);
      if (!bucket) rows.set(key, (bucket = []));
      bucket.push(row);
    }
    index.set(field, new Map([...rows].map(([key, bucket]) => [key, Uint32Array.from(bucket)])));
  }
  return new CompactSnapshot({
    idField,
    ids,
    columns: columns.map(({ name, codes, values }) => ({ name, codes: narrowest(codes, values.length), values })),
    layouts,
    layoutCodes: narrowest(layoutCodes, layouts.length),
    index,
    bytes,
  });
}
