import type { Faker } from '@faker-js/faker';
import { int64Max, normaliseInt64, type Int64 } from '../json/exact-json.js';
import type { ExactPet, PetStatus } from '../types/api-types.js';

/**
 * Which fields of the item the generator fills, read from the document (see
 * `generationTarget` in scenario-catalogue.ts): the id, a required text it
 * fills with a pet's name, a required integer it draws from 1..categories,
 * and the state (an enumeration) it draws from `statuses`, if there is one.
 */
export interface GeneratedFields {
  id: string;
  name: string;
  category: string;
  status: string | undefined;
}

export interface GeneratePetsOptions {
  count: number;
  seed: number;
  /** The allowed values of the state field, in the document's order (the `PetStatus` enum). */
  statuses: readonly PetStatus[];
  fields: GeneratedFields;
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
 * at all, as the document allows. Faker is given, so that whoever calls
 * decides when it is loaded (see generate-pets.ts, and create-node-mock.ts).
 */
export function drawPets(faker: Faker, options: GeneratePetsOptions): ExactPet[] {
  const { count, seed, statuses, firstId = 1, categories = 5, fields } = options;
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
    const pet: Record<string, unknown> = {
      [fields.id]: idAt(firstId, index),
      [fields.name]: faker.animal.petName(),
      [fields.category]: faker.number.int({ min: 1, max: categories }),
    };
    if (status !== undefined && fields.status !== undefined) pet[fields.status] = status;
    pets.push(pet as ExactPet);
  }
  // Make every status appear: give each missing one to the first pet whose status another pet shares,
  // or else to a pet without a status. Deterministic, so the same seed still gives the same pets.
  const field = fields.status;
  if (field !== undefined && count >= statuses.length) {
    const statusOf = (pet: ExactPet) => (pet as Record<string, unknown>)[field] as PetStatus | undefined;
    const present = new Set(pets.map(statusOf));
    const missing = statuses.filter((status) => !present.has(status));
    const counts = new Map<PetStatus | undefined, number>();
    for (const pet of pets) counts.set(statusOf(pet), (counts.get(statusOf(pet)) ?? 0) + 1);
    for (const status of missing) {
      const donor =
        pets.find((pet) => (counts.get(statusOf(pet)) ?? 0) > 1) ?? pets.find((pet) => statusOf(pet) === undefined);
      if (!donor) break;
      counts.set(statusOf(donor), (counts.get(statusOf(donor)) ?? 0) - 1);
      (donor as Record<string, unknown>)[field] = status;
      counts.set(status, 1);
    }
  }
  return pets;
}

/** Makes Faker pets. Synchronous where Faker is already loaded (Node); a promise where it is loaded on demand. */
export type GeneratePets = (options: GeneratePetsOptions) => ExactPet[] | Promise<ExactPet[]>;
