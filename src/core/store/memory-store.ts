import type { HttpError } from '../errors/http-error.js';
import { int64Max, normaliseInt64 } from '../json/exact-json.js';
import { setOwnField } from '../support/own-field.js';
import { ItemCollection, type ListQuery } from './item-collection.js';
import { buildSnapshot } from './build-snapshot.js';
import { type CollectionShape, type Item, type ItemId, encodeItem, jsonBytes } from './item-snapshot.js';
import type { ResourceStore, StoreChange, WriteGate } from './resource-store.js';
import { createRevisionCounter, type RevisionCounter } from './revision-counter.js';
import type { StoreBudget } from './store-budget.js';
import { type Scenario, createScenario } from './scenario.js';
import { IdSpaceExhaustedError, StoreBytesFullError, StoreFullError } from './store-errors.js';

/**
 * A collection of the memory store, as `collection()` gives it: every call
 * answers at once. `T` is the items' type where the caller knows it
 * (`store.collection<ExactPet>('pets')`); the store holds them as they are.
 */
export interface MemoryCollection<T extends object = Item> {
  readonly name: string;
  readonly size: number;
  list(query: ListQuery): T[];
  get(id: ItemId): T | undefined;
  all(): T[];
  create(fields: Readonly<Record<string, unknown>>): T;
  replace(id: ItemId, fields: Readonly<Record<string, unknown>>): T | undefined;
  update(id: ItemId, patch: Readonly<Record<string, unknown>>): T | undefined;
  delete(id: ItemId): boolean;
}

export interface MemoryStoreOptions {
  /** The document's collections (see collection-shapes.ts), every one equal. */
  shapes: readonly CollectionShape[];
  /** The most items each collection holds; a create beyond it throws `StoreFullError`. Default: no limit. */
  maxItems?: number;
  /** The most bytes of items (as JSON) the store holds; beyond it `StoreBytesFullError`. Default: no limit. */
  maxBytes?: number;
  /** The budget shared by every store of the mock. Default: none. */
  budget?: StoreBudget;
  /** Shared by the stores of one mock, so that equal revisions mean equal content. */
  revisions?: RevisionCounter;
}

/**
 * The items of one session, in memory: one collection per resource of the
 * document. It starts by pointing at its scenario's shared snapshots and
 * keeps only its own changes beside them (see item-collection.ts), so a
 * store nobody writes to costs next to nothing, and its first write costs
 * that write, whatever the scenario's size. Items are frozen: callers never
 * get a way to change one in place.
 *
 * Reads and writes answer at once, through one collection at a time
 * (`store.collection('pets').list({ limit: 20 })`): the store knows no first
 * or main collection.
 */
export class MemoryStore implements ResourceStore {
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly #budget: StoreBudget | undefined;
  readonly #revisions: RevisionCounter;
  readonly #collections = new Map<string, ItemCollection>();
  readonly #views = new Map<string, MemoryCollection>();
  #gate: WriteGate | undefined;
  #scenario: Scenario;
  /** Whether the content was restored (a state file): its snapshots are this store's own. */
  #restored = false;
  #revision: number;
  #listeners: Array<(change: StoreChange) => void> = [];
  /** What this store has added to the budget's running total: its `chargedBytes` as of its last change. */
  #counted = 0;
  /** Whether the store has left the mock (its session dropped): it adds nothing to the budget any more. */
  #released = false;

  constructor(options: MemoryStoreOptions) {
    if (options.shapes.length === 0) throw new Error('a store needs at least one collection');
    this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#budget = options.budget;
    this.#revisions = options.revisions ?? createRevisionCounter();
    for (const shape of options.shapes) this.#collections.set(shape.name, new ItemCollection(shape));
    this.#scenario = createScenario('empty', {}, options.shapes, this.#revisions);
    this.#revision = this.#scenario.revision;
  }

  /** The names of the collections, in the document's order. */
  get collectionNames(): string[] {
    return [...this.#collections.keys()];
  }

  #collection(name: string): ItemCollection {
    const found = this.#collections.get(name);
    if (!found)
      throw new Error(`the store has no collection '${name}' (collections: ${this.collectionNames.join(', ')})`);
    return found;
  }

  /**
   * One collection, by its name in the document (`pets`), as the handlers use
   * it: reads, and writes checked against the limits and the write gate. An
   * unknown name throws, naming the collections there are.
   */
  collection(name: string): MemoryCollection;
  collection<T extends object>(name: string): MemoryCollection<T>;
  collection(name: string): MemoryCollection {
    let view = this.#views.get(name);
    if (!view) {
      const items = this.#collection(name);
      view = {
        name,
        get size() {
          return items.size;
        },
        list: (query) => items.list(query),
        get: (id) => items.get(id),
        all: () => items.all(),
        create: (fields) => this.#create(items, fields),
        replace: (id, fields) => this.#replace(items, id, fields, 'replace'),
        update: (id, patch) => this.#update(items, id, patch),
        delete: (id) => this.#delete(items, id),
      };
      this.#views.set(name, view);
    }
    return view;
  }

  /**
   * Points the store at the scenario's items and remembers them for
   * `reset()`. A scenario larger than the limits throws and changes nothing.
   */
  load(scenario: Scenario): void {
    for (const [name, snapshot] of scenario.snapshots) {
      this.#checkFits(snapshot.all.length, `scenario '${scenario.name}'`, name);
    }
    this.#checkBytes(scenario.bytes, `scenario '${scenario.name}'`, false);
    this.#gate?.check('load');
    this.#scenario = scenario;
    this.#share(scenario);
    this.#changed('load');
  }

  /** Goes back to the current scenario's initial items. */
  reset(): void {
    this.#gate?.check('reset');
    this.#share(this.#scenario);
    this.#changed('reset');
  }

  /**
   * Replaces the current items (for example with those saved in a state
   * file), by collection name, while keeping the scenario, so that `reset()`
   * still goes back to it. All or nothing: too many items or an id used
   * twice throws and changes nothing. A collection not named is emptied.
   */
  restore(data: Readonly<Record<string, readonly Item[]>>, what = 'the restored items'): void {
    const snapshots = new Map<string, ReturnType<typeof buildSnapshot>>();
    let bytes = 0;
    for (const [name, items] of this.#collections) {
      const given = data[name] ?? [];
      this.#checkFits(given.length, what, name);
      const snapshot = buildSnapshot(given, items.shape, what);
      bytes += snapshot.bytes;
      snapshots.set(name, snapshot);
    }
    this.#checkBytes(bytes, what, true, bytes - this.chargedBytes);
    for (const [name, snapshot] of snapshots) this.#collection(name).share(snapshot, true);
    this.#restored = true;
    this.#revision = this.#revisions.next();
    this.#changed('restore');
  }

  /**
   * Names the content: it changes with every change, and two stores showing
   * the same unchanged scenario share it. Response caches key on it.
   */
  get revision(): number {
    return this.#revision;
  }

  /** Calls `listener` after every change, with what changed. Returns a function that stops it. */
  onChange(listener: (change: StoreChange) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  get scenarioName(): string {
    return this.#scenario.name;
  }

  /** How many items each collection holds, by name (`{ pets: 50 }`). */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.#collections].map(([name, items]) => [name, items.size]));
  }

  /** Every collection's items, by name, in ascending id order (what a state file saves). */
  contents(): Record<string, Item[]> {
    return Object.fromEntries([...this.#collections].map(([name, items]) => [name, items.all()]));
  }

  /** Whether the store changed anything since its scenario was loaded (or holds restored items). */
  get isCopied(): boolean {
    return this.#restored || [...this.#collections.values()].some((items) => items.changed);
  }

  /** The JSON size of the items held, in bytes. */
  get bytes(): number {
    let bytes = 0;
    for (const items of this.#collections.values()) bytes += items.bytes;
    return bytes;
  }

  /** What the store holds against the mock's budget: its own items, not the scenario's it shares. */
  get chargedBytes(): number {
    let bytes = 0;
    for (const items of this.#collections.values()) bytes += items.chargedBytes;
    return bytes;
  }

  /**
   * Sets the gate asked before every change from now on (one at a time: the
   * state file's writer sets it for the store it keeps). `undefined` removes it.
   */
  setWriteGate(gate: WriteGate | undefined): void {
    this.#gate = gate;
  }

  /** Why changes are refused now (see `setWriteGate`), or `undefined`. */
  get writeProblem(): HttpError | undefined {
    return this.#gate?.problem();
  }

  /** The collections' names for a message about all of them: `pets and categories`. */
  #everyCollection(): string {
    const names = this.collectionNames;
    return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  }

  /** The id a new item gets: one above the highest ever held. */
  #nextId(items: ItemCollection): ItemId {
    const last = items.lastId;
    if (items.shape.idType === 'string') {
      let next = items.size + 1;
      while (items.get(String(next))) next += 1;
      return String(next);
    }
    if (last === undefined) return 1;
    if (typeof last === 'string' || BigInt(last) >= int64Max) throw new IdSpaceExhaustedError(last);
    return typeof last === 'number' && last < Number.MAX_SAFE_INTEGER ? last + 1 : normaliseInt64(BigInt(last) + 1n);
  }

  #create(items: ItemCollection, fields: Readonly<Record<string, unknown>>): Item {
    // What is refused, named only when it is: a create that fits (nearly every one) builds no message.
    const what = (): string => `a new ${items.shape.itemName}`;
    this.#checkFits(items.size + 1, what, items.shape.name);
    const { idField } = items.shape;
    const id = this.#nextId(items);
    // The id is the store's: whatever the caller's object holds under it is overwritten.
    const item: Record<string, unknown> = { [idField]: id, ...fields };
    item[idField] = id;
    Object.freeze(item);
    const bytes = encodeItem(item).length;
    this.#checkBytes(this.bytes + bytes, what, true, bytes);
    this.#gate?.check('create');
    items.add(item, bytes);
    this.#revision = this.#revisions.next();
    this.#changed('create');
    return item;
  }

  /** The item with `id` becomes `fields` (the id kept); undefined when there is none. */
  #replace(
    items: ItemCollection,
    id: ItemId,
    fields: Readonly<Record<string, unknown>>,
    change: 'replace' | 'update',
  ): Item | undefined {
    const existing = items.get(id);
    if (!existing) return undefined;
    const { idField } = items.shape;
    const item: Record<string, unknown> = { [idField]: id, ...fields };
    item[idField] = id;
    Object.freeze(item);
    const bytes = encodeItem(item).length;
    const grows = bytes - jsonBytes(existing);
    this.#checkBytes(
      this.bytes + grows,
      () => `the new values of ${items.shape.itemName} ${String(id)}`,
      true,
      Math.max(0, grows),
    );
    this.#gate?.check(change);
    items.put(item, bytes);
    this.#revision = this.#revisions.next();
    this.#changed(change);
    return item;
  }

  /** The fields `patch` names take its values (null removes one: RFC 7396); undefined when there is no such item. */
  #update(items: ItemCollection, id: ItemId, patch: Readonly<Record<string, unknown>>): Item | undefined {
    const existing = items.get(id);
    if (!existing) return undefined;
    // An own field whatever its name: a patch field named `__proto__` is a field like any other (RFC 7396).
    const merged: Record<string, unknown> = { ...existing };
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete merged[field];
      else setOwnField(merged, field, value);
    }
    return this.#replace(items, id, merged, 'update');
  }

  #delete(items: ItemCollection, id: ItemId): boolean {
    if (!items.get(id)) return false;
    this.#gate?.check('delete');
    items.delete(id);
    this.#revision = this.#revisions.next();
    this.#changed('delete');
    return true;
  }

  /** `what` names what is refused: text, or a function that writes it only when it is refused (each create). */
  #checkFits(count: number, what: string | (() => string), collection: string): void {
    if (count > this.maxItems) throw new StoreFullError(this.maxItems, count, named(what), collection);
  }

  /**
   * Checks that the store may hold `bytes` of items (every collection's: the
   * limits are the whole store's, and the refusal names them all): against its
   * own maximum, and, when `owned` (the bytes are the store's own), against
   * the mock's budget, which grows by `added`.
   */
  #checkBytes(bytes: number, what: string | (() => string), owned: boolean, added = bytes): void {
    if (bytes > this.maxBytes) {
      throw new StoreBytesFullError(this.maxBytes, bytes, named(what), 'store', this.#everyCollection());
    }
    if (!owned || !this.#budget) return;
    const total = this.#budget.charged() + added;
    if (total > this.#budget.maxBytes) {
      throw new StoreBytesFullError(this.#budget.maxBytes, total, named(what), 'mock', this.#everyCollection());
    }
  }

  #share(scenario: Scenario): void {
    for (const [name, items] of this.#collections) {
      const snapshot = scenario.snapshots.get(name);
      items.share(snapshot ?? buildSnapshot([], items.shape, `scenario '${scenario.name}'`));
    }
    this.#restored = false;
    this.#revision = scenario.revision;
  }

  #changed(change: StoreChange): void {
    this.#count();
    for (const listener of this.#listeners) listener(change);
  }

  /** Brings the budget's running total up to date with this store's own bytes (after every change). */
  #count(): void {
    if (!this.#budget || this.#released) return;
    const charged = this.chargedBytes;
    this.#budget.add(charged - this.#counted);
    this.#counted = charged;
  }

  /**
   * The store leaves the mock (its session was dropped or evicted): its own
   * bytes leave the shared budget, and a change it still makes (a request in
   * flight) counts against it no more.
   */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#budget?.add(-this.#counted);
    this.#counted = 0;
  }
}

export type { ListQuery };

/** What a refusal names: the text given, or the text a function writes. */
function named(what: string | (() => string)): string {
  return typeof what === 'string' ? what : what();
}
