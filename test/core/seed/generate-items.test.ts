import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { itemsStreamedAbove } from '../../../src/core/seed/draw-items.js';
import { generateItems, generateItemsLazily, type GeneratedField } from '../../../src/core/seed/generate-items.js';
import { isItemStream, type Item } from '../../../src/core/store/item-snapshot.js';
import { generatedFields } from '../../../src/core/seed/generated-fields.js';
import type { ExactPet, PetStatus } from '../../../src/core/types/api-types.js';
import { petFields, petResource, petsAsked } from '../../support/kit-model.js';

/** The kit's pets as the generator makes them for these options. */
const generatePets = (count: number, seed: number, more: Parameters<typeof petsAsked>[2] = {}): ExactPet[] =>
  generateItems(petsAsked(count, seed, more)) as ExactPet[];
/** The pets' fields with the state drawn from other values. */
const withStatuses = (values: readonly string[]): GeneratedField[] =>
  petFields.map((field) => (field.fill.kind === 'state' ? { ...field, fill: { ...field.fill, values } } : field));

const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);
const validatePet = compiled.validatorAt('/components/schemas/Pet');
const statuses = (compiled.document.components?.schemas?.PetStatus as { enum: PetStatus[] }).enum;

describe('generateItems, for the pets of the kit’s document', () => {
  it('reads the three statuses of the document, which the tests below rely on', () => {
    expect(statuses).toEqual(['available', 'pending', 'sold']);
  });

  it('makes byte-identical pets from the same seed and count', () => {
    for (const seed of [0, 1, 7, 42, 2 ** 31 - 1]) {
      const first = JSON.stringify(generatePets(100, seed));
      const second = JSON.stringify(generatePets(100, seed));
      expect(second).toBe(first);
    }
  });

  it('makes different pets from a different seed', () => {
    const one = JSON.stringify(generatePets(20, 1));
    const two = JSON.stringify(generatePets(20, 2));
    expect(two).not.toBe(one);
  });

  it('makes exactly `count` pets, and none for a count of 0', () => {
    for (const count of [0, 1, 2, 3, 17, 250]) {
      expect(generatePets(count, 1)).toHaveLength(count);
    }
  });

  it('numbers the pets one by one from 1 by default', () => {
    expect(generatePets(6, 5).map((pet) => pet.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('numbers the pets one by one from `firstId` when given', () => {
    expect(generatePets(4, 5, { firstId: 100 }).map((pet) => pet.id)).toEqual([100, 101, 102, 103]);
  });

  it('represents every status once there are at least as many pets as statuses, across many seeds and small counts', () => {
    const missing: string[] = [];
    for (let seed = 0; seed < 150; seed++) {
      for (let count = 3; count <= 10; count++) {
        const present = new Set(generatePets(count, seed).map((pet) => pet.status));
        for (const status of statuses)
          if (!present.has(status)) missing.push(`seed ${seed}, count ${count}: ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('represents every status in larger sets too', () => {
    for (const seed of [1, 7, 99]) {
      for (const count of [50, 250]) {
        const present = new Set(generatePets(count, seed).map((pet) => pet.status));
        expect([...statuses].filter((status) => !present.has(status))).toEqual([]);
      }
    }
  });

  it('uses only the statuses it is given, leaving about one pet in twenty without one', () => {
    const pets = generatePets(2000, 3);
    const withoutStatus = pets.filter((pet) => pet.status === undefined);
    expect(pets.every((pet) => pet.status === undefined || statuses.includes(pet.status))).toBe(true);
    expect(withoutStatus.length).toBeGreaterThan(2000 * 0.02);
    expect(withoutStatus.length).toBeLessThan(2000 * 0.1);
    expect(withoutStatus.every((pet) => !('status' in pet))).toBe(true);
  });

  it('draws only from a narrower list of statuses when given one', () => {
    const pets = generatePets(200, 4, { fields: withStatuses(['sold']) });
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['sold', undefined]));
  });

  it('gives every pet a realistic name: a non-empty word starting with a capital, without digits or outer spaces', () => {
    const pets = generatePets(1000, 11);
    for (const { name } of pets) {
      expect(typeof name).toBe('string');
      expect(name.trim()).toBe(name);
      expect(name).toMatch(/^\p{Lu}[\p{L} .'-]*$/u);
    }
    expect(new Set(pets.map((pet) => pet.name)).size).toBeGreaterThan(20);
  });

  it('draws categoryIds from 1 to 5 by default, using each of them', () => {
    const categoryIds = new Set(generatePets(500, 8).map((pet) => pet.categoryId));
    expect([...categoryIds].sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 3, 4, 5]);
  });

  it('draws categoryIds from 1 to `categories` when given', () => {
    const categoryIds = new Set(
      generatePets(300, 8, { fields: generatedFields(petResource, 2) }).map((pet) => pet.categoryId),
    );
    expect([...categoryIds].sort((a, b) => Number(a) - Number(b))).toEqual([1, 2]);
  });

  it("makes pets that all conform to the document's Pet schema", () => {
    for (const seed of [1, 2, 3, 1234]) {
      for (const pet of generatePets(300, seed)) {
        expect(validatePet(pet), JSON.stringify({ pet, errors: validatePet.errors })).toBe(true);
      }
    }
  });

  it("uses a Pet validator that does refuse a pet breaking the document's schema", () => {
    expect(validatePet({ id: 1, name: 'Bella', categoryId: 1, status: 'lost' })).toBe(false);
    expect(validatePet({ id: 1, name: 'Bella', categoryId: 1.5 })).toBe(false);
    expect(validatePet({ name: 'Bella', categoryId: 1 })).toBe(false);
  });
});

describe('generateItems, for any collection', () => {
  const named: GeneratedField = { name: 'name', fill: { kind: 'text' } };
  const reference: GeneratedField = {
    name: 'categoryId',
    fill: { kind: 'reference', collection: 'categories', optional: false },
  };
  const of = (fields: GeneratedField[], more: Partial<Parameters<typeof generateItems>[0]> = {}) =>
    generateItems({ collection: 'things', idField: 'id', count: 40, seed: 3, fields, ...more });

  it('draws every reference from the ids of the items that exist, using several of them', () => {
    const pool = [3, 9, 27n, 81];
    const made = of([named, reference], { pools: { categoryId: pool } });
    const drawn = new Set(made.map((item) => item.categoryId));
    expect([...drawn].every((id) => pool.includes(id as number | bigint))).toBe(true);
    expect(drawn.size).toBeGreaterThan(2);
  });

  it('leaves an optional reference out when there is nothing to refer to, and refuses a required one', () => {
    const optional: GeneratedField = { ...reference, fill: { ...reference.fill, optional: true } as never };
    expect(of([named, optional], { pools: { categoryId: [] } }).every((item) => !('categoryId' in item))).toBe(true);
    expect(() => of([named, reference], { pools: { categoryId: [] } })).toThrow(
      "the items of things require 'categoryId', which refers to categories, and categories has no item to refer to",
    );
  });

  it('gives the items the ids it is asked for, in order, instead of counting', () => {
    expect(of([named], { ids: [7, -1, 9007199254740993n] }).map((item) => item.id)).toEqual([7, -1, 9007199254740993n]);
  });

  it('fills a text by its format, within fixed dates, the same for the same seed', () => {
    const fields: GeneratedField[] = [
      { name: 'born', fill: { kind: 'text', format: 'date-time' } },
      { name: 'day', fill: { kind: 'text', format: 'date' } },
      { name: 'mail', fill: { kind: 'text', format: 'email' } },
      { name: 'key', fill: { kind: 'text', format: 'uuid' } },
      { name: 'short', fill: { kind: 'text', maxLength: 3 } },
    ];
    const made = of(fields);
    for (const item of made) {
      expect(String(item.born) >= '2020-01-01' && String(item.born) < '2030-01-01').toBe(true);
      expect(item.born).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(item.day).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(item.mail).toMatch(/^[^@\s]+@[^@\s]+$/);
      expect(item.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(String(item.short).length).toBeLessThanOrEqual(3);
    }
    expect(JSON.stringify(of(fields))).toBe(JSON.stringify(made));
  });

  it('never leaves a required state out, and draws integers, numbers and booleans within their bounds', () => {
    const made = of([
      { name: 'phase', fill: { kind: 'state', values: ['new', 'old'], optional: false } },
      { name: 'rank', fill: { kind: 'integer', min: -3, max: -1 } },
      { name: 'weight', fill: { kind: 'number', min: 1, max: 2 } },
      { name: 'tame', fill: { kind: 'boolean' } },
      { name: 'tags', fill: { kind: 'empty', type: 'array' } },
    ]);
    expect(made.every((item) => item.phase === 'new' || item.phase === 'old')).toBe(true);
    expect(made.every((item) => (item.rank as number) >= -3 && (item.rank as number) <= -1)).toBe(true);
    expect(made.every((item) => (item.weight as number) >= 1 && (item.weight as number) <= 2)).toBe(true);
    expect(new Set(made.map((item) => item.tame))).toEqual(new Set([true, false]));
    expect(made.every((item) => Array.isArray(item.tags) && item.tags.length === 0)).toBe(true);
  });

  it('keeps a field named __proto__ as a field, never as the prototype', () => {
    const [item] = of([{ name: '__proto__', fill: { kind: 'text' } }], { count: 1 });
    expect(Object.hasOwn(item as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
  });
});

describe('generateItemsLazily, for more items than a list is made for', () => {
  /** A copy of every item a stream hands out (it may write one object over for each), and what `each` answered. */
  const read = (options: Parameters<typeof generateItems>[0]) => {
    const made = generateItemsLazily(options);
    if (!isItemStream(made)) throw new Error('expected a stream');
    const items: Item[] = [];
    const complete = made.each((item) => items.push({ ...item }));
    return { made, items, complete };
  };

  it('hands out a list up to its bound, the same as generateItems', () => {
    const made = generateItemsLazily(petsAsked(itemsStreamedAbove, 5));
    expect(isItemStream(made)).toBe(false);
    expect(JSON.stringify(made)).toBe(JSON.stringify(generateItems(petsAsked(itemsStreamedAbove, 5))));
  });

  it('hands out above it a stream of the same pets, byte for byte, each time it is read', () => {
    const asked = petsAsked(itemsStreamedAbove + 1, 42, { firstId: 11 });
    const list = JSON.stringify(generateItems(asked));
    const { made, items, complete } = read(asked);
    expect(made.length).toBe(itemsStreamedAbove + 1);
    expect(complete).toBe(true);
    expect(JSON.stringify(items)).toBe(list);
    expect(JSON.stringify(made.toArray())).toBe(list);
    const again: Item[] = [];
    made.each((item) => again.push({ ...item }));
    expect(JSON.stringify(again)).toBe(list);
  });

  it('says when a state value was drawn by no item, and its list gives that value to one, as generateItems does', () => {
    // 5,000 states drawn for 10,001 items: some are drawn by none, and the list gives each of them to an item.
    const values = Array.from({ length: 5000 }, (_, index) => `state ${index}`);
    const fields: GeneratedField[] = [{ name: 'stage', fill: { kind: 'state', values, optional: false } }];
    const asked = { collection: 'things', idField: 'id', count: itemsStreamedAbove + 1, seed: 9, fields };
    const { made, items, complete } = read(asked);
    const drawn = new Set(items.map((item) => item.stage));
    expect(values.some((value) => !drawn.has(value))).toBe(true);
    expect(complete).toBe(false);
    const list = made.toArray();
    expect(new Set(list.map((item) => item.stage)).size).toBe(5000);
    expect(JSON.stringify(list)).toBe(JSON.stringify(generateItems(asked)));
  });
});
