import { buildSnapshot } from './build-snapshot.js';
import type { CollectionShape, Item, ItemSnapshot, ItemStream } from './item-snapshot.js';
import type { RevisionCounter } from './revision-counter.js';

/** A named set of items a store starts from, by collection; `reset()` goes back to it. Shared, never changed. */
export interface Scenario {
  readonly name: string;
  readonly snapshots: ReadonlyMap<string, ItemSnapshot>;
  /** Identifies the scenario's content for response caches (see `MemoryStore.revision`). */
  readonly revision: number;
  /** The size of its items as JSON, in bytes. */
  readonly bytes: number;
}

/**
 * Builds a scenario from checked items (see check-item-list.ts), by collection
 * name; a collection not named is empty. `streams` are items that follow a
 * collection's (generated ones, written into the snapshot as they are made).
 */
export function createScenario(
  name: string,
  data: Readonly<Record<string, readonly Item[]>>,
  shapes: readonly CollectionShape[],
  revisions: RevisionCounter,
  streams: Readonly<Record<string, ItemStream>> = {},
): Scenario {
  const snapshots = new Map<string, ItemSnapshot>();
  let bytes = 0;
  for (const shape of shapes) {
    const snapshot = buildSnapshot(data[shape.name] ?? [], shape, `scenario '${name}'`, streams[shape.name]);
    snapshots.set(shape.name, snapshot);
    bytes += snapshot.bytes;
  }
  return { name, snapshots, revision: revisions.next(), bytes };
}
