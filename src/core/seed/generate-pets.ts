// Only the English locale: importing the whole package costs about 120 ms more at start-up.
import { faker } from '@faker-js/faker/locale/en';
import { int64Max, normaliseInt64, type Int64 } from '../json/exact-json.js';
import type { ExactPet, PetStatus } from '../types/api-types.js';

export interface GeneratePetsOptions {
  count: number;
  seed: number;
  /** The allowed statuses, in the document's order (from the `PetStatus` enum). */
  statuses: readonly PetStatus[];
  /** The id of the first pet; the others follow one by one. */
  firstId?: Int64;
  /** Categories are drawn from 1..categories. */
  categories?: number;
}

/** The id `index` places after `first`, as an Int64 (a bigint only beyond 2^53−1). */
function idAt(first: Int64, index: number): Int64 {
  if (typeof first === 'number' && first + index <= Number.MAX_SAFE_INTEGER) return first + index;
  const id = BigInt(first) + BigInt(index);
  if (id > int64Max) throw new RangeError(`generated ids would go beyond the int64 maximum ${int64Max}`);
  return normaliseInt64(id);
}

/** How often each status is drawn, by its position in the enum; the last weight is "no status". */
const statusWeights = [55, 25, 15];
const noStatusWeight = 5;

/**
 * Realistic pets from Faker with a fixed seed: the same options give the same
 * pets, byte for byte, on every run. Every status appears once there are at
 * least as many pets as statuses, and about one pet in twenty has no status
 * at all, as the document allows.
 */
export function generatePets(options: GeneratePetsOptions): ExactPet[] {
  const { count, seed, statuses, firstId = 1, categories = 5 } = options;
  // Seeded right before a synchronous run, so the shared instance gives the same pets every time.
  faker.seed(seed);
  const choices = [
    ...statuses.map((status, index) => ({
      value: status as PetStatus | undefined,
      weight: statusWeights[index] ?? 10,
    })),
    { value: undefined, weight: noStatusWeight },
  ];
  const pets: ExactPet[] = [];
  for (let index = 0; index < count; index++) {
    const status = faker.helpers.weightedArrayElement(choices);
    const pet: ExactPet = {
      id: idAt(firstId, index),
      name: faker.animal.petName(),
      categoryId: faker.number.int({ min: 1, max: categories }),
    };
    if (status !== undefined) pet.status = status;
    pets.push(pet);
  }
  // Make every status appear: give each missing one to the first pet whose status another pet shares,
  // or else to a pet without a status. Deterministic, so the same seed still gives the same pets.
  if (count >= statuses.length) {
    const present = new Set(pets.map((pet) => pet.status));
    const missing = statuses.filter((status) => !present.has(status));
    const counts = new Map<PetStatus | undefined, number>();
    for (const pet of pets) counts.set(pet.status, (counts.get(pet.status) ?? 0) + 1);
    for (const status of missing) {
      const donor =
        pets.find((pet) => (counts.get(pet.status) ?? 0) > 1) ?? pets.find((pet) => pet.status === undefined);
      if (!donor) break;
      counts.set(donor.status, (counts.get(donor.status) ?? 0) - 1);
      donor.status = status;
      counts.set(status, 1);
    }
  }
  return pets;
}
