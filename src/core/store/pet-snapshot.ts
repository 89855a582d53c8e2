import { compareInt64, type Int64 } from '../json/exact-json.js';
import type { ExactPet, PetStatus } from '../types/api-types.js';

export const noStatus = Symbol('no status');
export type StatusKey = PetStatus | typeof noStatus;

/**
 * Pets indexed for the store: in ascending id order, by id, and by status,
 * so that a filtered page costs O(limit) however many pets there are. A
 * snapshot built from a scenario is shared, read-only, by every store that
 * loads the scenario; a store copies it on its first write.
 */
export interface PetSnapshot {
  readonly all: ExactPet[];
  readonly byId: Map<Int64, ExactPet>;
  readonly byStatus: Map<StatusKey, ExactPet[]>;
  /** The highest id (0 when there is none above it): the next pet gets the one after. */
  lastId: Int64;
}

export function emptySnapshot(): PetSnapshot {
  return { all: [], byId: new Map(), byStatus: new Map(), lastId: 0 };
}

/** Adds a pet whose id is above every id in the snapshot (or rebuilds in order, see buildSnapshot). */
export function insertPet(snapshot: PetSnapshot, pet: ExactPet): void {
  snapshot.byId.set(pet.id, pet);
  snapshot.all.push(pet);
  const key: StatusKey = pet.status ?? noStatus;
  let bucket = snapshot.byStatus.get(key);
  if (!bucket) {
    bucket = [];
    snapshot.byStatus.set(key, bucket);
  }
  bucket.push(pet);
  if (pet.id > snapshot.lastId) snapshot.lastId = pet.id;
}

/**
 * Indexes pets that were checked (see check-pet-list.ts): sorted by id,
 * each frozen (a copy, so a later change to the objects given cannot reach
 * the store). Throws on an id used twice, naming `what` holds them.
 */
export function buildSnapshot(pets: readonly ExactPet[], what: string): PetSnapshot {
  const sorted = [...pets].sort((a, b) => compareInt64(a.id, b.id));
  const snapshot = emptySnapshot();
  for (let index = 0; index < sorted.length; index++) {
    const pet = sorted[index] as ExactPet;
    if (index > 0 && sorted[index - 1]?.id === pet.id) throw new Error(`${what} has two pets with id ${pet.id}`);
    insertPet(snapshot, Object.isFrozen(pet) ? pet : Object.freeze({ ...pet }));
  }
  return snapshot;
}

/** A copy that a store may change: the pets themselves are frozen and shared. */
export function copySnapshot(snapshot: PetSnapshot): PetSnapshot {
  return {
    all: [...snapshot.all],
    byId: new Map(snapshot.byId),
    byStatus: new Map([...snapshot.byStatus].map(([key, pets]) => [key, [...pets]])),
    lastId: snapshot.lastId,
  };
}
