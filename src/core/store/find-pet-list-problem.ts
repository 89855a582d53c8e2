import type { Pet } from '../types/api-types.js';

/**
 * What keeps a list of pets (a fixture's, a state file's) from being loaded
 * although each pet matches the schema: an id or categoryId a JSON client
 * cannot read exactly (beyond 2^53-1), or an id used twice. `noun` names the
 * field in the message, e.g. `fixture field`. Undefined when there is none.
 */
export function findPetListProblem(pets: readonly Pet[], noun: string): string | undefined {
  const ids = new Set<number>();
  for (const [index, pet] of pets.entries()) {
    for (const field of ['id', 'categoryId'] as const) {
      if (!Number.isSafeInteger(pet[field])) {
        return `${noun} 'pets[${index}].${field}' must be an integer of at most 2^53-1 in size, so that JSON clients read it exactly`;
      }
    }
    if (ids.has(pet.id)) return `${noun} 'pets[${index}].id' repeats id ${pet.id}`;
    ids.add(pet.id);
  }
  return undefined;
}
