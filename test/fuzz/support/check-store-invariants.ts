import { stringifyJson } from '../../../src/core/json/exact-json.js';
import type { MemoryStore } from '../../../src/core/store/memory-store.js';
import { petsIn } from '../../support/kit-model.js';

type PetStore = MemoryStore;

export interface StoreInvariantOptions {
  /** Validates one pet against the document's Pet schema. */
  validatePet: (value: unknown) => boolean;
  /** The statuses the document defines (PetStatus's enum). */
  statuses: readonly string[];
  /** The fields the Pet schema defines. */
  petFields: readonly string[];
}

/**
 * The store's invariants, read through its public API: unique ascending ids,
 * `size` equal to what it lists, a first page of 100 equal to the first 100
 * pets, per-status lists that partition the store, and pets that are frozen,
 * valid, and hold only the schema's fields. Returns every broken invariant.
 */
export function checkStoreInvariants(store: PetStore, options: StoreInvariantOptions): string[] {
  const problems: string[] = [];
  const all = petsIn(store).all();
  if (petsIn(store).size !== all.length)
    problems.push(`petsIn(store).size is ${petsIn(store).size} but it lists ${all.length} pets`);
  for (let index = 0; index < all.length; index++) {
    const pet = all[index];
    if (!pet) continue;
    const previous = all[index - 1];
    if (!Number.isSafeInteger(pet.id)) problems.push(`pet id ${pet.id} is not a safe integer`);
    if (previous && previous.id >= pet.id) problems.push(`ids are not unique and ascending: ${previous.id}, ${pet.id}`);
    // The same pet, field for field (a scenario's pets are built afresh each time they are read).
    if (stringifyJson(petsIn(store).get(pet.id)) !== stringifyJson(pet))
      problems.push(`petsIn(store).get(${pet.id}) does not return the listed pet`);
    if (!Object.isFrozen(pet)) problems.push(`pet ${pet.id} is not frozen`);
    if (!options.validatePet(pet)) problems.push(`pet ${pet.id} breaks the Pet schema: ${JSON.stringify(pet)}`);
    const extra = Reflect.ownKeys(pet).filter((key) => typeof key !== 'string' || !options.petFields.includes(key));
    if (extra.length > 0) problems.push(`pet ${pet.id} holds fields the schema does not define: ${String(extra)}`);
    if (Object.getPrototypeOf(pet) !== Object.prototype) problems.push(`pet ${pet.id} has another prototype`);
  }
  const firstPage = petsIn(store)
    .list({ limit: 100 })
    .map((pet) => pet.id);
  const expected = all.slice(0, 100).map((pet) => pet.id);
  if (firstPage.join() !== expected.join()) problems.push(`a page of 100 lists ${firstPage} instead of ${expected}`);
  let partitioned = all.filter((pet) => pet.status === undefined).length;
  for (const status of options.statuses) {
    const listed = petsIn(store).list({ limit: all.length + 1, filters: { status: status as never } });
    const wrong = listed.find((pet) => pet.status !== status);
    if (wrong) problems.push(`the '${status}' list holds pet ${wrong.id} with status ${wrong.status}`);
    const count = all.filter((pet) => pet.status === status).length;
    if (listed.length !== count) problems.push(`the '${status}' list holds ${listed.length} pets, the store ${count}`);
    partitioned += listed.length;
  }
  if (partitioned !== all.length)
    problems.push(`the per-status lists hold ${partitioned} pets, the store ${all.length}`);
  return problems;
}
