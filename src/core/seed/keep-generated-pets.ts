import { BoundedMap } from '../support/bounded-map.js';
import type { ExactPet } from '../types/api-types.js';
import type { GeneratePets, GeneratePetsOptions } from './draw-pets.js';

/** The lists the kit's generator made, by what it was asked; the oldest goes beyond 16. */
const made = new BoundedMap<string, readonly ExactPet[]>(16);
/** A longer list is not kept: a mock of a million pets holds them itself, and nothing else should pin them. */
const maxPetsKept = 10_000;

function keyOf(options: GeneratePetsOptions): string {
  return JSON.stringify([
    options.count,
    options.seed,
    options.statuses,
    String(options.firstId ?? 1),
    options.categories ?? null,
    options.fields,
  ]);
}

/** Keeps a list under its options, each pet frozen (so stores share them, and copy only their own indexes). */
function keep(key: string, pets: readonly ExactPet[]): ExactPet[] {
  if (pets.length > maxPetsKept) return pets as ExactPet[];
  const frozen = Object.freeze(pets.map((pet) => (Object.isFrozen(pet) ? pet : Object.freeze({ ...pet }))));
  made.set(key, frozen);
  return frozen as ExactPet[];
}

/**
 * Lists made ahead for these options (the default scenario, generated at
 * build time by `npm run generate` with the same generator): a mock created
 * with them needs neither Faker nor the time to draw them.
 */
export function rememberGeneratedPets(options: GeneratePetsOptions, pets: readonly ExactPet[]): void {
  keep(keyOf(options), pets);
}

/**
 * The kit's own pet generator (Faker, seeded), keeping what it makes: the
 * same options always give the same pets, so a second mock of the same
 * scenario reuses the first one's list instead of drawing it again. Only for
 * the kit's generator: a generator of the user's may not repeat itself.
 */
export function keepGeneratedPets(generate: GeneratePets): GeneratePets {
  return (options) => {
    const key = keyOf(options);
    const found = made.get(key);
    if (found) return found as ExactPet[];
    const pets = generate(options);
    return pets instanceof Promise ? pets.then((list) => keep(key, list)) : keep(key, pets);
  };
}
