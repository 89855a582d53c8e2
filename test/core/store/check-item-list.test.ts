import { describe, expect, it } from 'vitest';
import { describeApi } from '../../../src/core/model/describe-api.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { createItemListCheck, ItemListError } from '../../../src/core/store/check-item-list.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { caught } from '../../support/caught.js';

const compiled = compileDocument(defaultDocument);
const resource = describeApi(compiled).resources[0];
if (!resource) throw new Error('the kit’s document has a resource');
const checkPets = createItemListCheck(compiled, resource);

/** The message the check stops with for `pets`. */
const refusal = (pets: unknown): string =>
  caught(
    ItemListError,
    () => checkPets(pets, 'fixtures/shop.yaml'),
    JSON.stringify(pets, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
  ).message;

describe('the model of the pets', () => {
  it("reads the Pet schema's fields through $ref and allOf, and the fields a NewPet sets", () => {
    expect([...resource.fields].sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    expect([...resource.writable].sort()).toEqual(['categoryId', 'name', 'status']);
  });
});

describe('createItemListCheck', () => {
  it('returns a list of valid pets, the same pets it was given', () => {
    const pets = [
      { id: 1, name: 'Bella', categoryId: 1, status: 'available' },
      { id: 2, name: '', categoryId: -1 },
    ];
    const checked = checkPets(pets, 'here');
    expect(checked).toEqual(pets);
    expect(checked[0]).toBe(pets[0]);
  });

  it('accepts an empty list', () => {
    expect(checkPets([], 'here')).toEqual([]);
  });

  it('refuses a pet with a field the Pet schema does not name, though Pet itself does not forbid one', () => {
    expect(refusal([{ id: 1, name: 'Ada', categoryId: 3, owner: 'Bob' }])).toBe(
      "fixtures/shop.yaml: field 'pets[0].owner' is not allowed here",
    );
  });

  it('refuses an id used twice, naming the second pet and the id', () => {
    expect(
      refusal([
        { id: 7, name: 'A', categoryId: 1 },
        { id: 8, name: 'B', categoryId: 1 },
        { id: 7, name: 'C', categoryId: 1 },
      ]),
    ).toBe('fixtures/shop.yaml: pets[2].id repeats id 7');
  });

  it('refuses an id beyond 2^53 used twice', () => {
    expect(
      refusal([
        { id: 9007199254740993n, name: 'A', categoryId: 1 },
        { id: 9007199254740993n, name: 'B', categoryId: 1 },
      ]),
    ).toBe('fixtures/shop.yaml: pets[1].id repeats id 9007199254740993');
  });

  it('sees 1 and 1n as the same id, and returns the bigint form of a small integer as the number it equals', () => {
    expect(
      refusal([
        { id: 1, name: 'A', categoryId: 1 },
        { id: 1n, name: 'B', categoryId: 1 },
      ]),
    ).toBe('fixtures/shop.yaml: pets[1].id repeats id 1');
    const [pet] = checkPets([{ id: 5n, name: 'A', categoryId: 2n }], 'here');
    expect(pet).toEqual({ id: 5, name: 'A', categoryId: 2 });
  });

  it('accepts ids and categoryIds at both ends of int64, exactly', () => {
    const pets = [
      { id: -9223372036854775808n, name: 'Min', categoryId: 9223372036854775807n },
      { id: 9223372036854775807n, name: 'Max', categoryId: -9223372036854775808n },
    ];
    expect(checkPets(pets, 'here')).toEqual(pets);
  });

  it.each([
    ['an id of 2^63', { id: 9223372036854775808n, name: 'A', categoryId: 1 }, "field 'pets[0].id' must be an int64"],
    [
      'a categoryId below -2^63',
      { id: 1, name: 'A', categoryId: -9223372036854775809n },
      "field 'pets[0].categoryId' must be an int64",
    ],
    ['a decimal id', { id: 1.5, name: 'A', categoryId: 1 }, "field 'pets[0].id' must be integer"],
    ['an id as text', { id: '1', name: 'A', categoryId: 1 }, "field 'pets[0].id' must be integer"],
    ['a missing name', { id: 1, categoryId: 1 }, "field 'pets[0].name' is required"],
    [
      'an unknown status',
      { id: 1, name: 'A', categoryId: 1, status: 'lost' },
      "field 'pets[0].status' must be one of: available, pending, sold",
    ],
  ])('refuses %s, naming the pet and the field', (_case, pet, words) => {
    expect(refusal([pet])).toContain(`fixtures/shop.yaml: ${words}`);
  });

  it.each([
    ['an object', { pets: [] }],
    ['a pet that is not an object', [5]],
    ['null', null],
  ])('refuses %s instead of a list of pets', (_case, value) => {
    expect(refusal(value)).toMatch(/^fixtures\/shop\.yaml: field 'pets(\[0\])?' must be/);
  });

  it('names the first problems and how many more there are', () => {
    const pets = Array.from({ length: 8 }, (_, index) => ({ id: index, name: 'A', categoryId: 1, status: 'lost' }));
    expect(refusal(pets)).toMatch(/; and 3 more problems$/);
  });
});
