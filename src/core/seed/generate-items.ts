// Only the English locale: importing the whole package costs about 120 ms more.
import { faker } from '@faker-js/faker/locale/en';
import {
  drawItems,
  drawItemsLazily,
  type GeneratedItem,
  type GenerateItemsOptions,
  type MadeItems,
} from './draw-items.js';

export type { GeneratedField, GeneratedItem, GenerateItems, GenerateItemsOptions, MadeItems } from './draw-items.js';

/**
 * `drawItems` with Faker's English locale, imported with this module: what a
 * browser loads as a chunk of its own, only when a scenario generates items
 * the kit did not make ahead.
 */
export function generateItems(options: GenerateItemsOptions): GeneratedItem[] {
  return drawItems(faker, options);
}

/** `drawItemsLazily` with the same locale: a large list as a stream (what a mock asks for). */
export function generateItemsLazily(options: GenerateItemsOptions): MadeItems {
  return drawItemsLazily(faker, options);
}
