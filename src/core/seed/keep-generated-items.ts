import { BoundedMap } from '../support/bounded-map.js';
import { isItemStream } from '../store/item-snapshot.js';
import type { GeneratedItem, GenerateItems, GenerateItemsOptions, MadeItems } from './draw-items.js';

/** The lists the kit's generator made, by what it was asked; the oldest goes beyond 16. */
const made = new BoundedMap<string, readonly GeneratedItem[]>(16);
/** A longer list is not kept: a mock of a million pets holds them itself, and nothing else should pin them. */
const maxItemsKept = 10_000;

/** The options as a key: every field, ids beyond 2^53 (bigints) written with their digits. */
function keyOf(options: GenerateItemsOptions): string {
  return JSON.stringify(options, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

/** Keeps a list under its options, each item frozen (so stores share them, and copy only their own indexes). */
function keep(key: string, items: MadeItems): MadeItems {
  if (isItemStream(items) || items.length > maxItemsKept) return items;
  const frozen = Object.freeze(items.map((item) => (Object.isFrozen(item) ? item : Object.freeze({ ...item }))));
  made.set(key, frozen);
  return frozen as GeneratedItem[];
}

/**
 * Lists made ahead for these options (the default scenario's pets, generated
 * at build time by `npm run generate` with the same generator): a mock
 * created with them needs neither Faker nor the time to draw them.
 */
export function rememberGeneratedItems(options: GenerateItemsOptions, items: readonly GeneratedItem[]): void {
  keep(keyOf(options), items);
}

/**
 * The kit's own item generator (Faker, seeded), keeping what it makes: the
 * same options always give the same items, so a second mock of the same
 * scenario reuses the first one's list instead of drawing it again. Only for
 * the kit's generator: a generator of the user's may not repeat itself.
 */
export function keepGeneratedItems(generate: GenerateItems): GenerateItems {
  return (options) => {
    const key = keyOf(options);
    const found = made.get(key);
    if (found) return found;
    const items = generate(options);
    return items instanceof Promise ? items.then((list) => keep(key, list)) : keep(key, items);
  };
}
