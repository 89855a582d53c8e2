import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson, type Int64 } from '../../../src/core/json/exact-json.js';
import { type CollectionShape, jsonBytes } from '../../../src/core/store/item-snapshot.js';
import { type MemoryCollection, MemoryStore, type MemoryStoreOptions } from '../../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../../src/core/store/revision-counter.js';
import { createScenario, type Scenario } from '../../../src/core/store/scenario.js';
import { IdSpaceExhaustedError, StoreFullError } from '../../../src/core/store/store-errors.js';
import type { ExactNewPet, ExactPet } from '../../../src/core/types/api-types.js';

const bella: ExactPet = { id: 1, name: 'Bella', categoryId: 1, status: 'available' };
const max: ExactPet = { id: 2, name: 'Max', categoryId: 2, status: 'pending' };
const luna: ExactPet = { id: 3, name: 'Luna', categoryId: 1, status: 'sold' };
const rex: ExactPet = { id: 4, name: 'Rex', categoryId: 3, status: 'available' };
const shadow: ExactPet = { id: 5, name: 'Shadow', categoryId: 2 };

/** The pets of the kit's document, as the model describes them to the store. */
const pets: CollectionShape = { name: 'pets', itemName: 'pet', idField: 'id', idType: 'integer', indexed: ['status'] };
const revisions = createRevisionCounter();
const scenarioOf = (name: string, list: ExactPet[]): Scenario =>
  createScenario(name, { pets: list }, [pets], revisions);

/** A store of pets, as a session of the kit's document has one, and its one collection. */
class PetStore extends MemoryStore {
  constructor(options: Partial<Omit<MemoryStoreOptions, 'shapes' | 'maxItems'>> & { maxPets?: number } = {}) {
    const { maxPets, ...rest } = options;
    super({ shapes: [pets], ...(maxPets === undefined ? {} : { maxItems: maxPets }), ...rest });
  }

  /** The store's pets, by the collection's name. */
  get pets(): MemoryCollection<ExactPet> {
    return this.collection<ExactPet>(pets.name);
  }
}

function storeWith(list: ExactPet[], name = 'test'): PetStore {
  const store = new PetStore({ revisions });
  store.load(scenarioOf(name, list));
  return store;
}

const ids = (pets: readonly ExactPet[]): Int64[] => pets.map((pet) => pet.id);

describe('MemoryStore', () => {
  describe('before anything is loaded', () => {
    it('is empty, under the scenario name "empty", and gives the first new pet id 1', () => {
      const store = new PetStore();
      expect(store.pets.size).toBe(0);
      expect(store.scenarioName).toBe('empty');
      expect(store.pets.all()).toEqual([]);
      expect(store.pets.list({ limit: 100 })).toEqual([]);
      expect(store.pets.create({ name: 'First', categoryId: 1 }).id).toBe(1);
    });
  });

  describe('load', () => {
    it('replaces the whole content with the scenario and remembers its name', () => {
      const store = storeWith([bella, max], 'first');
      store.pets.create({ name: 'Extra', categoryId: 1 });
      store.load(scenarioOf('second', [luna]));
      expect(store.scenarioName).toBe('second');
      expect(ids(store.pets.all())).toEqual([3]);
      expect(store.pets.get(1)).toBeUndefined();
    });

    it('keeps the pets in ascending id order whatever order the scenario lists them in', () => {
      const store = storeWith([rex, bella, shadow, max, luna]);
      expect(ids(store.pets.all())).toEqual([1, 2, 3, 4, 5]);
      expect(ids(store.pets.list({ limit: 100 }))).toEqual([1, 2, 3, 4, 5]);
    });

    it('refuses a scenario with two pets under the same id, naming the scenario and the id', () => {
      expect(() => scenarioOf('twins', [bella, { ...max, id: 1 }])).toThrow("scenario 'twins' has two pets with id 1");
    });

    it('keeps its pets and its scenario when restoring pets with a repeated id fails', () => {
      const store = storeWith([bella]);
      expect(() => store.restore({ pets: [max, { ...max }] })).toThrow('the restored items has two pets with id 2');
      expect(ids(store.pets.all())).toEqual([bella.id]);
      store.reset();
      expect(ids(store.pets.all())).toEqual([bella.id]);
    });

    it('does not let a later change to the scenario objects reach the stored pets', () => {
      const mutable: ExactPet = { id: 7, name: 'Original', categoryId: 1 };
      const store = storeWith([mutable]);
      mutable.name = 'Changed';
      expect(store.pets.get(7)?.name).toBe('Original');
    });
  });

  describe('reset', () => {
    it('goes back to the scenario pets, forgetting every pet created since', () => {
      const store = storeWith([bella, max]);
      store.pets.create({ name: 'Extra', categoryId: 1, status: 'sold' });
      expect(store.pets.size).toBe(3);
      store.reset();
      expect(ids(store.pets.all())).toEqual([1, 2]);
      expect(store.pets.get(3)).toBeUndefined();
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'sold' } }))).toEqual([]);
    });

    it('hands out ids again from one above the highest scenario id', () => {
      const store = storeWith([bella, max]);
      store.pets.create({ name: 'A', categoryId: 1 });
      store.pets.create({ name: 'B', categoryId: 1 });
      store.reset();
      expect(store.pets.create({ name: 'C', categoryId: 1 }).id).toBe(3);
    });
  });

  describe('list', () => {
    it('returns at most `limit` pets, the lowest ids first', () => {
      const store = storeWith([luna, bella, rex, max, shadow]);
      expect(ids(store.pets.list({ limit: 2 }))).toEqual([1, 2]);
      expect(ids(store.pets.list({ limit: 5 }))).toEqual([1, 2, 3, 4, 5]);
      expect(ids(store.pets.list({ limit: 50 }))).toEqual([1, 2, 3, 4, 5]);
    });

    it('returns nothing for a limit of 0', () => {
      expect(storeWith([bella, max]).pets.list({ limit: 0 })).toEqual([]);
    });

    it('returns only the pets with the requested status, still in ascending id order', () => {
      const store = storeWith([rex, luna, bella, max, shadow]);
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'available' } }))).toEqual([1, 4]);
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'pending' } }))).toEqual([2]);
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'sold' } }))).toEqual([3]);
    });

    it('applies the limit after the status filter', () => {
      const store = storeWith([bella, max, rex, { id: 6, name: 'Coco', categoryId: 1, status: 'available' }]);
      expect(ids(store.pets.list({ limit: 2, filters: { status: 'available' } }))).toEqual([1, 4]);
    });

    it('returns an empty list for a status no pet has', () => {
      expect(storeWith([bella, max]).pets.list({ limit: 10, filters: { status: 'sold' } })).toEqual([]);
    });

    it('includes pets without a status in the unfiltered list only', () => {
      const store = storeWith([bella, shadow]);
      expect(ids(store.pets.list({ limit: 10 }))).toEqual([1, 5]);
      for (const status of ['available', 'pending', 'sold'] as const) {
        expect(ids(store.pets.list({ limit: 10, filters: { status } }))).not.toContain(5);
      }
    });

    it('files a created pet under its status', () => {
      const store = storeWith([bella]);
      const created = store.pets.create({ name: 'New', categoryId: 2, status: 'available' });
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'available' } }))).toEqual([1, created.id]);
    });

    it('returns a new array each time, so changing it leaves the store alone', () => {
      const store = storeWith([bella, max]);
      const page = store.pets.list({ limit: 10 });
      page.pop();
      const filtered = store.pets.list({ limit: 10, filters: { status: 'available' } });
      filtered.length = 0;
      expect(ids(store.pets.list({ limit: 10 }))).toEqual([1, 2]);
      expect(ids(store.pets.list({ limit: 10, filters: { status: 'available' } }))).toEqual([1]);
    });
  });

  describe('get', () => {
    it('finds a pet by its id', () => {
      expect(storeWith([bella, max]).pets.get(2)).toEqual(max);
    });

    it('returns undefined for an id no pet has', () => {
      const store = storeWith([bella, max]);
      expect(store.pets.get(3)).toBeUndefined();
      expect(store.pets.get(0)).toBeUndefined();
      expect(store.pets.get(-1)).toBeUndefined();
    });
  });

  describe('create', () => {
    it('gives the new pet the next id after the highest so far, not after the count', () => {
      const store = storeWith([bella, { ...rex, id: 10 }]);
      expect(store.pets.size).toBe(2);
      expect(store.pets.create({ name: 'A', categoryId: 1 }).id).toBe(11);
      expect(store.pets.create({ name: 'B', categoryId: 1 }).id).toBe(12);
    });

    it('stores the fields it was given and returns the stored pet', () => {
      const store = storeWith([bella]);
      const created = store.pets.create({ name: 'Nala', categoryId: 4, status: 'pending' });
      expect(created).toEqual({ id: 2, name: 'Nala', categoryId: 4, status: 'pending' });
      expect(store.pets.get(2)).toBe(created);
      expect(store.pets.size).toBe(2);
      expect(ids(store.pets.all())).toEqual([1, 2]);
    });

    it('leaves out a status the client did not send', () => {
      const created = new PetStore().pets.create({ name: 'Nameless', categoryId: 1 });
      expect(created).not.toHaveProperty('status');
    });

    it('ignores an id the client put in the new pet', () => {
      const store = storeWith([bella, max]);
      const sneaky = { id: 1, name: 'Impostor', categoryId: 1 } as ExactNewPet & { id: number };
      const created = store.pets.create(sneaky);
      expect(created.id).toBe(3);
      expect(store.pets.get(1)).toEqual(bella);
      expect(store.pets.get(3)?.name).toBe('Impostor');
    });

    it('does not keep a reference to the object it was given', () => {
      const store = new PetStore();
      const input: ExactNewPet = { name: 'Before', categoryId: 1 };
      store.pets.create(input);
      input.name = 'After';
      expect(store.pets.get(1)?.name).toBe('Before');
    });

    it('goes on past 2^53-1 with exact bigint ids once the store holds one that large', () => {
      const store = storeWith([{ id: Number.MAX_SAFE_INTEGER - 1, name: 'Nearly', categoryId: 1 }]);
      expect(store.pets.create({ name: 'Last safe', categoryId: 1 }).id).toBe(Number.MAX_SAFE_INTEGER);
      expect(store.pets.create({ name: 'First big', categoryId: 1 }).id).toBe(9007199254740992n);
      expect(store.pets.get(9007199254740992n)?.name).toBe('First big');
      expect(store.pets.get(9007199254740991)?.name).toBe('Last safe');
    });

    it('continues after the highest id of a fixture anywhere in int64', () => {
      const store = storeWith([bella, { id: 9223372036854775000n, name: 'Snowflake', categoryId: 1 }]);
      expect(store.pets.create({ name: 'Next', categoryId: 1 }).id).toBe(9223372036854775001n);
      expect(ids(store.pets.list({ limit: 10 }))).toEqual([1, 9223372036854775000n, 9223372036854775001n]);
    });

    it('refuses to go beyond 2^63-1 with IdSpaceExhaustedError (a 500) and stores nothing', () => {
      const store = storeWith([{ id: 9223372036854775807n, name: 'Last', categoryId: 1 }]);
      const error = (() => {
        try {
          store.pets.create({ name: 'One too many', categoryId: 1 });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(IdSpaceExhaustedError);
      expect(error).toMatchObject({
        code: 'id_space_exhausted',
        status: 500,
        message: 'the next id after 9223372036854775807 would exceed the int64 maximum 9223372036854775807',
      });
      expect(store.pets.size).toBe(1);
    });
  });

  describe('frozen pets', () => {
    it('freezes scenario pets, so a caller cannot change a stored pet in place', () => {
      const store = storeWith([{ ...bella }]);
      const pet = store.pets.get(1) as ExactPet;
      expect(Object.isFrozen(pet)).toBe(true);
      expect(() => {
        (pet as { name: string }).name = 'Hacked';
      }).toThrow(TypeError);
      expect(store.pets.get(1)?.name).toBe('Bella');
    });

    it('freezes created pets and every pet handed out by list and all', () => {
      const store = storeWith([bella, max]);
      const created = store.pets.create({ name: 'New', categoryId: 1 });
      expect(Object.isFrozen(created)).toBe(true);
      expect(store.pets.list({ limit: 10 }).every((pet) => Object.isFrozen(pet))).toBe(true);
      expect(
        store.pets.list({ limit: 10, filters: { status: 'available' } }).every((pet) => Object.isFrozen(pet)),
      ).toBe(true);
      expect(store.pets.all().every((pet) => Object.isFrozen(pet))).toBe(true);
    });
  });

  describe('all', () => {
    it('returns every pet in ascending id order, including created ones', () => {
      const store = storeWith([max, bella]);
      store.pets.create({ name: 'New', categoryId: 1 });
      expect(ids(store.pets.all())).toEqual([1, 2, 3]);
    });

    it('returns a copy, so changing it leaves the store alone', () => {
      const store = storeWith([bella, max]);
      const everything = store.pets.all();
      everything.splice(0, 2);
      expect(store.pets.size).toBe(2);
      expect(ids(store.pets.all())).toEqual([1, 2]);
    });
  });
});

describe('MemoryStore limits and change tracking', () => {
  const scenario = scenarioOf('two', [bella, max]);

  it('refuses to create beyond maxPets with StoreFullError, evicting nothing', () => {
    const store = new PetStore({ maxPets: 3, revisions });
    store.load(scenario);
    store.pets.create({ name: 'Third', categoryId: 1 });
    expect(() => store.pets.create({ name: 'Fourth', categoryId: 1 })).toThrow(StoreFullError);
    expect(() => store.pets.create({ name: 'Fourth', categoryId: 1 })).toThrow(
      'a new pet would make the store hold 4 pets, more than its maximum of 3 (--max-pets); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)',
    );
    expect(store.pets.all().map((pet) => pet.name)).toEqual(['Bella', 'Max', 'Third']);
  });

  it('refuses a scenario with more pets than maxPets and keeps what it had', () => {
    const store = new PetStore({ maxPets: 1, revisions });
    store.load(scenarioOf('one', [bella]));
    expect(() => store.load(scenario)).toThrow(StoreFullError);
    expect(() => store.load(scenario)).toThrow("scenario 'two' would make the store hold 2 pets");
    expect(store.pets.all()).toEqual([bella]);
  });

  it('changes its revision with every change and tells its listeners what changed', () => {
    const store = new PetStore({ revisions });
    const changes: string[] = [];
    const stop = store.onChange((change) => changes.push(change));
    const seen = [store.revision];
    store.load(scenario);
    seen.push(store.revision);
    store.pets.create({ name: 'Rex', categoryId: 1 });
    seen.push(store.revision);
    store.reset();
    seen.push(store.revision);
    store.restore({ pets: [max] });
    seen.push(store.revision);
    expect(new Set(seen.slice(0, 3)).size).toBe(3);
    // Back to the scenario: the revision is the scenario's again, as the content is.
    expect(seen[3]).toBe(seen[1]);
    expect(seen[4]).not.toBe(seen[3]);
    expect(changes).toEqual(['load', 'create', 'reset', 'restore']);
    stop();
    store.reset();
    expect(changes).toHaveLength(4);
    expect(store.pets.list({ limit: 10 })).toEqual([bella, max]);
  });

  it('keeps the scenario when restoring pets, so reset still goes back to it', () => {
    const store = new PetStore({ revisions });
    store.load(scenario);
    store.restore({ pets: [{ id: 9, name: 'Saved', categoryId: 4, status: 'sold' }] });
    expect(store.pets.get(9)?.name).toBe('Saved');
    expect(store.pets.create({ name: 'Next', categoryId: 1 }).id).toBe(10);
    store.reset();
    expect(store.pets.all()).toEqual([bella, max]);
    expect(store.scenarioName).toBe('two');
  });

  it('does not change the revision when a create is refused', () => {
    const store = new PetStore({ maxPets: 2, revisions });
    store.load(scenario);
    const revision = store.revision;
    expect(() => store.pets.create({ name: 'Rex', categoryId: 1 })).toThrow(StoreFullError);
    expect(store.revision).toBe(revision);
  });
});

describe('MemoryStore sharing its scenario', () => {
  const many = Array.from({ length: 1000 }, (_, index): ExactPet => ({
    id: index + 1,
    name: `Pet ${index}`,
    categoryId: 1,
    status: index % 2 === 0 ? 'available' : 'sold',
  }));
  const shared = scenarioOf('shared', many);
  const bytesOf = (list: readonly ExactPet[]) => list.reduce((sum, pet) => sum + jsonBytes(pet), 0);

  it('shares its scenario’s pets, so two untouched stores read the same pets, copy none and charge nothing', () => {
    const one = new PetStore({ revisions });
    const two = new PetStore({ revisions });
    one.load(shared);
    two.load(shared);
    expect(one.isCopied).toBe(false);
    expect(one.chargedBytes).toBe(0);
    expect(one.pets.list({ limit: 1000 })).toEqual(two.pets.list({ limit: 1000 }));
    expect(one.pets.get(1000)).toEqual(many[999]);
    expect(one.revision).toBe(two.revision);
    expect(one.bytes).toBe(bytesOf(many));
  });

  it('keeps only its own change beside the scenario: a write never reaches the scenario or another store', () => {
    const one = new PetStore({ revisions });
    const two = new PetStore({ revisions });
    one.load(shared);
    two.load(shared);
    const created = one.pets.create({ name: 'Only in one', categoryId: 1 });
    expect(one.isCopied).toBe(true);
    expect(one.pets.size).toBe(1001);
    expect(two.pets.size).toBe(1000);
    expect(shared.snapshots.get('pets')?.all).toHaveLength(1000);
    expect(one.revision).not.toBe(two.revision);
    // Charged for the pet it holds beyond the scenario, not for the scenario's.
    expect(one.chargedBytes).toBe(jsonBytes(created));
    expect(one.bytes).toBe(bytesOf(many) + jsonBytes(created));
    const three = new PetStore({ revisions });
    three.load(shared);
    expect(three.pets.size).toBe(1000);
  });

  it('replaces and deletes a scenario pet in its own view only, keeping ids in order and filters exact', () => {
    const one = new PetStore({ revisions });
    const two = new PetStore({ revisions });
    one.load(shared);
    two.load(shared);
    const view = one.collection('pets');
    // Pet 2 is sold in the scenario; replaced with another status, it moves from one filtered list to the other.
    expect(view.replace(2, { name: 'Renamed', categoryId: 7, status: 'available' })).toEqual({
      id: 2,
      name: 'Renamed',
      categoryId: 7,
      status: 'available',
    });
    expect(view.delete(3)).toBe(true);
    expect(view.delete(3)).toBe(false);
    expect(ids(one.pets.list({ limit: 4 }))).toEqual([1, 2, 4, 5]);
    expect(ids(one.pets.list({ limit: 3, filters: { status: 'available' } }))).toEqual([1, 2, 5]);
    expect(ids(one.pets.list({ limit: 3, filters: { status: 'sold' } }))).toEqual([4, 6, 8]);
    expect(one.pets.get(3)).toBeUndefined();
    expect(one.pets.size).toBe(999);
    expect(two.pets.get(2)).toEqual(many[1]);
    expect(ids(two.pets.list({ limit: 3, filters: { status: 'sold' } }))).toEqual([2, 4, 6]);
    // A deleted id is never handed out again.
    expect(one.pets.create({ name: 'Next', categoryId: 1 }).id).toBe(1001);
    expect(one.bytes).toBe(
      bytesOf(many) -
        jsonBytes(many[1] as ExactPet) -
        jsonBytes(many[2] as ExactPet) +
        jsonBytes(one.pets.get(2) as ExactPet) +
        jsonBytes(one.pets.get(1001) as ExactPet),
    );
  });

  it('merges a patch: the fields it names change, null removes one, the id stays', () => {
    const store = storeWith([bella]);
    expect(store.collection('pets').update(1, { name: 'Bell', status: null })).toEqual({
      id: 1,
      name: 'Bell',
      categoryId: 1,
    });
    expect(store.collection('pets').update(99, { name: 'Nobody' })).toBeUndefined();
    expect(ids(store.pets.list({ limit: 5, filters: { status: 'available' } }))).toEqual([]);
  });

  it('goes back to sharing on reset, with nothing of its own', () => {
    const store = new PetStore({ revisions });
    store.load(shared);
    store.pets.create({ name: 'Gone after reset', categoryId: 1 });
    store.collection('pets').delete(1);
    store.reset();
    expect(store.isCopied).toBe(false);
    expect(store.chargedBytes).toBe(0);
    expect(store.pets.size).toBe(1000);
    expect(store.revision).toBe(shared.revision);
  });
});

describe('jsonBytes', () => {
  it.each([
    ['ASCII', { id: 1, name: 'Bella', categoryId: 1, status: 'available' }],
    ['accents, CJK, an emoji, quotes and a backslash', { id: 2, name: 'Zoë 小白 🐶 "q" \\ b', categoryId: 1 }],
    ['a control character and an int64 beyond 2^53', { id: 3, name: '\u0001 x', categoryId: 9007199254740993n }],
  ] as Array<[string, ExactPet]>)('counts the UTF-8 bytes of the pet as JSON (%s)', (_what, pet) => {
    expect(jsonBytes(pet)).toBe(Buffer.byteLength(stringifyJson(pet)));
  });
});

describe('MemoryStore against a plain list of pets (fast-check)', () => {
  const statusOf = fc.constantFrom<ExactPet['status']>('available', 'pending', 'sold', undefined);
  const petFields = fc.record({
    name: fc.string({ maxLength: 3 }),
    categoryId: fc.integer({ min: 1, max: 3 }),
    status: statusOf,
  });
  const command = fc.oneof(
    fc.record({ kind: fc.constant('create' as const), fields: petFields }),
    fc.record({ kind: fc.constant('replace' as const), id: fc.integer({ min: 1, max: 30 }), fields: petFields }),
    fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 1, max: 30 }), fields: petFields }),
    fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 30 }) }),
    fc.record({ kind: fc.constant('reset' as const) }),
  );
  /** A pet as stored: no key for an absent status, as the store keeps it. */
  const stored = (id: number, fields: { name: string; categoryId: number; status: ExactPet['status'] }): ExactPet => {
    const pet: ExactPet = { id, name: fields.name, categoryId: fields.categoryId };
    if (fields.status !== undefined) pet.status = fields.status;
    return pet;
  };

  it('lists, reads and counts what a plain sorted list of the same pets does, after any writes', () => {
    fc.assert(
      fc.property(fc.array(petFields, { maxLength: 15 }), fc.array(command, { maxLength: 40 }), (seed, commands) => {
        const initial = seed.map((fields, index) => stored(index + 1, fields));
        const store = storeWith(initial);
        let expected = [...initial];
        let lastId = initial.length;
        for (const step of commands) {
          const view = store.collection('pets');
          if (step.kind === 'create') {
            lastId += 1;
            store.pets.create(stored(0, step.fields) as unknown as ExactNewPet);
            expected.push(stored(lastId, step.fields));
          } else if (step.kind === 'replace' || step.kind === 'update') {
            const index = expected.findIndex((pet) => pet.id === step.id);
            const { id: _id, ...values } = stored(step.id, step.fields);
            const patch = step.kind === 'update' ? { ...values, status: step.fields.status ?? null } : values;
            const result = step.kind === 'replace' ? view.replace(step.id, values) : view.update(step.id, patch);
            expect(result === undefined).toBe(index === -1);
            if (index !== -1) expected[index] = stored(step.id, step.fields);
          } else if (step.kind === 'delete') {
            const index = expected.findIndex((pet) => pet.id === step.id);
            expect(view.delete(step.id)).toBe(index !== -1);
            if (index !== -1) expected.splice(index, 1);
          } else {
            store.reset();
            expected = [...initial];
            lastId = initial.length;
          }
          expect(store.pets.size).toBe(expected.length);
          expect(store.pets.all()).toEqual(expected);
          for (const status of ['available', 'pending', 'sold'] as const) {
            for (const limit of [1, 3, 100]) {
              expect(store.pets.list({ limit, filters: { status } })).toEqual(
                expected.filter((pet) => pet.status === status).slice(0, limit),
              );
            }
          }
          expect(store.pets.list({ limit: 4 })).toEqual(expected.slice(0, 4));
          expect(store.pets.list({ limit: 50, filters: { status: 'sold', categoryId: 2 } })).toEqual(
            expected.filter((pet) => pet.status === 'sold' && pet.categoryId === 2),
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('MemoryStore, a field named __proto__', () => {
  it('keeps a patch field named __proto__ as an own field of the item, as RFC 7396 merges any name', () => {
    const store = storeWith([bella]);
    const patch = JSON.parse('{"__proto__": "not a prototype"}') as Record<string, unknown>;
    const updated = store.pets.update(1, patch) as Record<string, unknown>;
    expect(Object.hasOwn(updated, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(updated, '__proto__')?.value).toBe('not a prototype');
    expect(Object.getPrototypeOf(updated)).toBe(Object.prototype);
    expect(stringifyJson(store.pets.get(1))).toBe(
      '{"id":1,"name":"Bella","categoryId":1,"status":"available","__proto__":"not a prototype"}',
    );
    // null removes it again, as it removes any field.
    const removed = store.pets.update(1, JSON.parse('{"__proto__": null}') as Record<string, unknown>);
    expect(Object.hasOwn(removed as object, '__proto__')).toBe(false);
  });

  it('keeps a create’s and a replace’s field named __proto__ too', () => {
    const store = storeWith([]);
    const fields = JSON.parse('{"name": "Proto", "categoryId": 1, "__proto__": {"polluted": true}}') as Record<
      string,
      unknown
    >;
    const created = store.pets.create(fields) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(created, '__proto__')?.value).toEqual({ polluted: true });
    const replaced = store.pets.replace(created.id as number, fields) as Record<string, unknown>;
    expect(Object.hasOwn(replaced, '__proto__')).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
