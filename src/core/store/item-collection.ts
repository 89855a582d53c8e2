import { buildSnapshot } from './build-snapshot.js';
import {
  appendItem,
  type CollectionShape,
  compareIds,
  emptyOwnItems,
  type Item,
  type ItemId,
  type ItemRows,
  type ItemSnapshot,
  jsonBytes,
  type OwnItems,
  placeItem,
  removeItem,
  valueKey,
  type ValueKey,
} from './item-snapshot.js';

/** A page of a collection: at most `limit` items, only those whose fields equal every filter's value. */
export interface ListQuery {
  limit: number;
  /** Field → value an item must have (`{ status: 'sold' }`); an undefined value filters nothing. */
  filters?: Readonly<Record<string, unknown>>;
}

/** Whether an item has every value the filters ask for (exactly: int64 values by value, objects by their JSON). */
export function matchesFilters(item: Item, filters: Readonly<Record<string, unknown>> | undefined): boolean {
  if (!filters) return true;
  for (const field in filters) {
    const wanted = filters[field];
    if (wanted !== undefined && valueKey(item[field]) !== valueKey(wanted)) return false;
  }
  return true;
}

/** The highest id of a snapshot, or undefined for none. */
function lastIdOf(snapshot: ItemSnapshot): ItemId | undefined {
  const { all } = snapshot;
  return all.length > 0 ? all.id(all.length - 1) : undefined;
}

const noItems: readonly Item[] = Object.freeze([]);

/**
 * One resource's items in one store: a shared snapshot (its scenario's,
 * never changed and never copied) plus this store's own changes beside it.
 * The store's own items (created, and the snapshot's items it replaced) are
 * indexed like the snapshot; the snapshot's ids it replaced or deleted are
 * hidden. So a session's first write costs what that write costs, whatever
 * the scenario's size, and a list merges the two in id order, stopping at
 * its limit.
 */
export class ItemCollection {
  readonly shape: CollectionShape;
  #base: ItemSnapshot;
  /** Whether the base is this store's own (restored from a state file): it is charged then. */
  #baseOwned = false;
  #own: OwnItems;
  /** Ids of the base this store replaced or deleted, with their JSON size. */
  #hidden = new Map<ItemId, number>();
  #hiddenBytes = 0;
  /** The highest id ever held (a deleted id is never handed out again). */
  #lastId: ItemId | undefined;

  constructor(shape: CollectionShape, base: ItemSnapshot = buildSnapshot([], shape, 'no scenario')) {
    this.shape = shape;
    this.#base = base;
    this.#own = emptyOwnItems(shape);
    this.#lastId = lastIdOf(base);
  }

  /** Points at a shared snapshot and forgets this store's changes. */
  share(base: ItemSnapshot, owned = false): void {
    this.#base = base;
    this.#baseOwned = owned;
    this.#own = emptyOwnItems(this.shape);
    this.#hidden = new Map();
    this.#hiddenBytes = 0;
    this.#lastId = lastIdOf(base);
  }

  get size(): number {
    return this.#base.all.length - this.#hidden.size + this.#own.all.length;
  }

  /** The JSON size of the items held, in bytes. */
  get bytes(): number {
    return this.#base.bytes - this.#hiddenBytes + this.#own.bytes;
  }

  /** What this store holds beyond what it shares: its own items (and a restored base, which is its own). */
  get chargedBytes(): number {
    return (this.#baseOwned ? this.#base.bytes : 0) + this.#own.bytes;
  }

  /** Whether this store changed anything since it was pointed at its snapshot. */
  get changed(): boolean {
    return this.#own.all.length > 0 || this.#hidden.size > 0;
  }

  /** The highest id ever held (undefined when none). */
  get lastId(): ItemId | undefined {
    return this.#lastId;
  }

  get(id: ItemId): Item | undefined {
    return this.#own.byId.get(id) ?? (this.#hidden.has(id) ? undefined : this.#base.get(id));
  }

  /** The first `limit` items in ascending id order that match the filters. */
  list(query: ListQuery): Item[] {
    const { limit, filters } = query;
    if (limit <= 0) return [];
    const { base, own, exact } = this.#streams(filters);
    const { idField } = this.shape;
    // The common cases need no merge: the streams already match every filter, no scenario item is hidden,
    // and this store's own items all come after the scenario's (it only created).
    if (exact && this.#hidden.size === 0) {
      const first = own[0];
      if (!first) return base.slice(0, limit);
      if (base.length === 0 || compareIds(base.id(base.length - 1), first[idField] as ItemId) < 0) {
        const page = base.slice(0, limit);
        return page.length < limit ? page.concat(own.slice(0, limit - page.length)) : page;
      }
    }
    return this.#merged(base, own, limit, filters);
  }

  /** Merges the two sorted streams in id order, skipping hidden scenario items, keeping those that match. */
  #merged(
    base: ItemRows,
    own: readonly Item[],
    limit: number,
    filters: Readonly<Record<string, unknown>> | undefined,
  ): Item[] {
    const page: Item[] = [];
    const { idField } = this.shape;
    const hidden = this.#hidden;
    let b = 0;
    let o = 0;
    while (page.length < limit && (b < base.length || o < own.length)) {
      const baseId = b < base.length ? base.id(b) : undefined;
      const fromOwn = own[o];
      let next: Item;
      if (fromOwn === undefined || (baseId !== undefined && compareIds(baseId, fromOwn[idField] as ItemId) < 0)) {
        b++;
        if (hidden.size > 0 && hidden.has(baseId as ItemId)) continue;
        next = base.at(b - 1) as Item;
      } else {
        o++;
        next = fromOwn;
      }
      if (matchesFilters(next, filters)) page.push(next);
    }
    return page;
  }

  /** Every item in ascending id order. */
  all(): Item[] {
    return this.list({ limit: Number.POSITIVE_INFINITY });
  }

  /**
   * The two sorted streams a list merges (the scenario's and this store's):
   * the smallest index buckets one of the filters picks, or every item; and
   * whether they hold only items that match every filter (no filter, or one
   * that has an index).
   */
  #streams(filters: Readonly<Record<string, unknown>> | undefined): {
    base: ItemRows;
    own: readonly Item[];
    exact: boolean;
  } {
    let best = { base: this.#base.all, own: this.#own.all as readonly Item[], exact: true };
    if (!filters) return best;
    let given = 0;
    let indexed = false;
    for (const field in filters) {
      const wanted = filters[field];
      if (wanted === undefined) continue;
      given++;
      const ownIndex = this.#own.byField.get(field);
      if (!ownIndex) continue;
      const key: ValueKey = valueKey(wanted);
      const base = this.#base.rowsWith(field, key);
      if (!base) continue;
      const own = ownIndex.get(key) ?? noItems;
      if (!indexed || base.length + own.length < best.base.length + best.own.length) {
        best = { base, own, exact: true };
        indexed = true;
      }
    }
    best.exact = given === 0 || (given === 1 && indexed);
    return best;
  }

  /** Adds an item with a new id (above every id held): the caller has checked limits. */
  add(item: Item, bytes = jsonBytes(item)): void {
    appendItem(this.#own, this.shape, item, bytes);
    this.#lastId = item[this.shape.idField] as ItemId;
  }

  /** Puts `item` in place of the item with its id, which exists. */
  put(item: Item, bytes = jsonBytes(item)): void {
    const id = item[this.shape.idField] as ItemId;
    this.#remove(id);
    const own = this.#own;
    own.byId.set(id, item);
    placeItem(own.all as Item[], this.shape.idField, item);
    for (const [field, buckets] of own.byField) {
      const key = valueKey(item[field]);
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = [];
        buckets.set(key, bucket);
      }
      placeItem(bucket, this.shape.idField, item);
    }
    own.bytes += bytes;
  }

  /** Takes out the item with that id; false when there is none. */
  delete(id: ItemId): boolean {
    if (!this.get(id)) return false;
    this.#remove(id);
    return true;
  }

  /** The item with that id leaves this store's view: out of its own items, or hidden in the base. */
  #remove(id: ItemId): void {
    const own = this.#own;
    const mine = own.byId.get(id);
    if (mine) {
      const { idField } = this.shape;
      own.byId.delete(id);
      removeItem(own.all as Item[], idField, id);
      for (const [field, buckets] of own.byField) {
        const bucket = buckets.get(valueKey(mine[field]));
        if (bucket) removeItem(bucket, idField, id);
      }
      own.bytes -= jsonBytes(mine);
    }
    const shared = this.#base.get(id);
    if (shared && !this.#hidden.has(id)) {
      const bytes = jsonBytes(shared);
      this.#hidden.set(id, bytes);
      this.#hiddenBytes += bytes;
    }
  }
}
