// Only the English locale: importing the whole package costs about 120 ms more.
import { faker } from '@faker-js/faker/locale/en';
import type { ExactPet } from '../types/api-types.js';
import { drawPets, type GeneratePetsOptions } from './draw-pets.js';

export type { GeneratedFields, GeneratePets, GeneratePetsOptions } from './draw-pets.js';

/**
 * `drawPets` with Faker's English locale, imported with this module: what a
 * browser loads as a chunk of its own, only when a scenario generates pets the
 * kit did not make ahead.
 */
export function generatePets(options: GeneratePetsOptions): ExactPet[] {
  return drawPets(faker, options);
}
