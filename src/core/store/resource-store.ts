import type { HttpError } from '../errors/http-error.js';
import type { ListQuery } from './item-collection.js';
import type { Item, ItemId } from './item-snapshot.js';
import type { Awaitable } from '../types/awaitable.js';

/** What changed a store (the state file's writer and the journal of changes listen for it). */
export type StoreChange = 'load' | 'reset' | 'restore' | 'create' | 'replace' | 'update' | 'delete';

/**
 * What stands between a change and the store (the state file, in Node, so
 * that the core learns of a failing disk without importing node:fs).
 */
export interface WriteGate {
  /**
   * Asked before a change is made: throws an `HttpError` to refuse it (`503
   * store_unavailable` while the state file cannot be written); nothing is changed then.
   */
  check(change: StoreChange): void;
  /** Why changes are refused now, for the health endpoint; `undefined` while they are accepted. */
  problem(): HttpError | undefined;
}

/**
 * One resource's items, as the handlers of each operation kind use them.
 * Every write is checked against the store's limits and its write gate
 * before anything changes, and throws an `HttpError` to refuse it.
 */
export interface StoredCollection {
  readonly name: string;
  readonly size: number;
  /** The first `limit` items in ascending id order that match the filters. */
  list(query: ListQuery): Awaitable<Item[]>;
  get(id: ItemId): Awaitable<Item | undefined>;
  all(): Awaitable<Item[]>;
  /** Stores a new item with the next id (one above the highest ever held) and returns it. */
  create(fields: Readonly<Record<string, unknown>>): Awaitable<Item>;
  /** The item's fields become these (its id kept); undefined when there is no such item. */
  replace(id: ItemId, fields: Readonly<Record<string, unknown>>): Awaitable<Item | undefined>;
  /** The fields the patch names take its values (null removes one); undefined when there is no such item. */
  update(id: ItemId, patch: Readonly<Record<string, unknown>>): Awaitable<Item | undefined>;
  /** Takes the item out; false when there was none. */
  delete(id: ItemId): Awaitable<boolean>;
}

/**
 * A session's store, as the pipeline sees it: one collection per resource of
 * the document, and a revision that names its content (response caches key
 * on it). The memory store (memory-store.ts) is the one the kit has; a
 * store shared by replicas (Valkey, Redis) would implement this interface,
 * answering with promises, and could give a new revision at every read to
 * opt out of caching.
 */
export interface ResourceStore {
  readonly revision: number;
  collection(name: string): StoredCollection;
}
