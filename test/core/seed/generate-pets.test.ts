import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { generatePets } from '../../../src/core/seed/generate-pets.js';
import type { PetStatus } from '../../../src/core/types/api-types.js';
import { petFields } from '../../support/kit-model.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);
const validatePet = compiled.validatorAt('/components/schemas/Pet');
const statuses = (compiled.document.components?.schemas?.PetStatus as { enum: PetStatus[] }).enum;

describe('generatePets', () => {
  it('reads the three statuses of the document, which the tests below rely on', () => {
    expect(statuses).toEqual(['available', 'pending', 'sold']);
  });

  it('makes byte-identical pets from the same seed and count', () => {
    for (const seed of [0, 1, 7, 42, 2 ** 31 - 1]) {
      const first = JSON.stringify(generatePets({ fields: petFields, count: 100, seed, statuses }));
      const second = JSON.stringify(generatePets({ fields: petFields, count: 100, seed, statuses }));
      expect(second).toBe(first);
    }
  });

  it('makes different pets from a different seed', () => {
    const one = JSON.stringify(generatePets({ fields: petFields, count: 20, seed: 1, statuses }));
    const two = JSON.stringify(generatePets({ fields: petFields, count: 20, seed: 2, statuses }));
    expect(two).not.toBe(one);
  });

  it('makes exactly `count` pets, and none for a count of 0', () => {
    for (const count of [0, 1, 2, 3, 17, 250]) {
      expect(generatePets({ fields: petFields, count, seed: 1, statuses })).toHaveLength(count);
    }
  });

  it('numbers the pets one by one from 1 by default', () => {
    expect(generatePets({ fields: petFields, count: 6, seed: 5, statuses }).map((pet) => pet.id)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('numbers the pets one by one from `firstId` when given', () => {
    expect(generatePets({ fields: petFields, count: 4, seed: 5, statuses, firstId: 100 }).map((pet) => pet.id)).toEqual(
      [100, 101, 102, 103],
    );
  });

  it('represents every status once there are at least as many pets as statuses, across many seeds and small counts', () => {
    const missing: string[] = [];
    for (let seed = 0; seed < 150; seed++) {
      for (let count = 3; count <= 10; count++) {
        const present = new Set(generatePets({ fields: petFields, count, seed, statuses }).map((pet) => pet.status));
        for (const status of statuses)
          if (!present.has(status)) missing.push(`seed ${seed}, count ${count}: ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('represents every status in larger sets too', () => {
    for (const seed of [1, 7, 99]) {
      for (const count of [50, 250]) {
        const present = new Set(generatePets({ fields: petFields, count, seed, statuses }).map((pet) => pet.status));
        expect([...statuses].filter((status) => !present.has(status))).toEqual([]);
      }
    }
  });

  it('uses only the statuses it is given, leaving about one pet in twenty without one', () => {
    const pets = generatePets({ fields: petFields, count: 2000, seed: 3, statuses });
    const withoutStatus = pets.filter((pet) => pet.status === undefined);
    expect(pets.every((pet) => pet.status === undefined || statuses.includes(pet.status))).toBe(true);
    expect(withoutStatus.length).toBeGreaterThan(2000 * 0.02);
    expect(withoutStatus.length).toBeLessThan(2000 * 0.1);
    expect(withoutStatus.every((pet) => !('status' in pet))).toBe(true);
  });

  it('draws only from a narrower list of statuses when given one', () => {
    const pets = generatePets({ fields: petFields, count: 200, seed: 4, statuses: ['sold'] });
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['sold', undefined]));
  });

  it('gives every pet a realistic name: a non-empty word starting with a capital, without digits or outer spaces', () => {
    const pets = generatePets({ fields: petFields, count: 1000, seed: 11, statuses });
    for (const { name } of pets) {
      expect(typeof name).toBe('string');
      expect(name.trim()).toBe(name);
      expect(name).toMatch(/^\p{Lu}[\p{L} .'-]*$/u);
    }
    expect(new Set(pets.map((pet) => pet.name)).size).toBeGreaterThan(20);
  });

  it('draws categoryIds from 1 to 5 by default, using each of them', () => {
    const categoryIds = new Set(
      generatePets({ fields: petFields, count: 500, seed: 8, statuses }).map((pet) => pet.categoryId),
    );
    expect([...categoryIds].sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 3, 4, 5]);
  });

  it('draws categoryIds from 1 to `categories` when given', () => {
    const categoryIds = new Set(
      generatePets({ fields: petFields, count: 300, seed: 8, statuses, categories: 2 }).map((pet) => pet.categoryId),
    );
    expect([...categoryIds].sort((a, b) => Number(a) - Number(b))).toEqual([1, 2]);
  });

  it("makes pets that all conform to the document's Pet schema", () => {
    for (const seed of [1, 2, 3, 1234]) {
      for (const pet of generatePets({ fields: petFields, count: 300, seed, statuses })) {
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
