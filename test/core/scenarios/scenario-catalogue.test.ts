import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { FixtureError } from '../../../src/core/scenarios/fixture.js';
import { ScenarioCatalogue, type ScenarioCatalogueOptions } from '../../../src/core/scenarios/scenario-catalogue.js';
import { generateItems } from '../../../src/core/seed/generate-items.js';
import { describeApi } from '../../../src/core/model/describe-api.js';
import { collectionShapes } from '../../../src/core/store/collection-shapes.js';
import { MemoryStore } from '../../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../../src/core/store/revision-counter.js';
import type { Scenario } from '../../../src/core/store/scenario.js';
import { petsAsked } from '../../support/kit-model.js';
import type { ExactPet, PetStatus } from '../../../src/core/types/api-types.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { defaultFixtures } from '../../../src/generated/default-fixtures.js';

const compiled = compileDocument(defaultDocument, 'openapi.yaml');
const validatePet = compiled.validatorAt('/components/schemas/Pet');
const statuses = (compiled.document.components?.schemas?.PetStatus as { enum: PetStatus[] }).enum;
const revisions = createRevisionCounter();
const api = describeApi(compiled);
const shapes = collectionShapes(api);

function catalogueOf(
  fixtures: Record<string, unknown> = defaultFixtures,
  overrides: Partial<ScenarioCatalogueOptions> = {},
): ScenarioCatalogue {
  const catalogue = new ScenarioCatalogue({
    compiled,
    api,
    shapes,
    revisions,
    pets: 50,
    seed: 1,
    generateItems,
    ...overrides,
  });
  for (const [name, fixture] of Object.entries(fixtures)) catalogue.add(name, fixture, `fixtures/${name}.yaml`);
  return catalogue;
}

/** The pets of a scenario that loads synchronously (literal pets, or generated with Faker already loaded). */
function petsOf(catalogue: ScenarioCatalogue, name: string): ExactPet[] {
  const scenario = catalogue.load(name);
  if (scenario instanceof Promise) throw new Error(`${name} loaded asynchronously`);
  return [...(scenario.snapshots.get('pets')?.all ?? [])] as ExactPet[];
}

/** The error adding a fixture stops with. */
function errorFor(fixture: unknown): FixtureError {
  try {
    catalogueOf({}).add('bad', fixture, 'bad.yaml');
  } catch (error) {
    if (error instanceof FixtureError) return error;
    throw error;
  }
  throw new Error('the fixture was added without an error');
}

const onePet = (pet: Record<string, unknown>) => ({ description: 'one pet', pets: [pet] });

describe('ScenarioCatalogue over the kit’s fixtures', () => {
  it('lists every fixture by name, with its description and source', () => {
    const catalogue = catalogueOf();
    expect(catalogue.list().map((info) => info.name)).toEqual([
      'default',
      'edge-cases',
      'empty',
      'large',
      'one-of-each-status',
    ]);
    for (const info of catalogue.list()) {
      expect(info.description.length).toBeGreaterThan(0);
      expect(info.source).toBe(`fixtures/${info.name}.yaml`);
      expect(catalogue.has(info.name)).toBe(true);
    }
    expect(catalogue.has('nope')).toBe(false);
  });

  it("loads every scenario with unique ids and pets that conform to the document's Pet schema", () => {
    const catalogue = catalogueOf();
    for (const { name } of catalogue.list()) {
      const pets = petsOf(catalogue, name);
      const ids = pets.map((pet) => String(pet.id));
      expect(new Set(ids).size, name).toBe(ids.length);
      for (const pet of pets) expect(validatePet(pet), `${name}: ${String(pet.id)}`).toBe(true);
      const store = new MemoryStore({ shapes, revisions });
      expect(() => store.load(catalogue.load(name) as Scenario)).not.toThrow();
    }
  });

  it('generates the default scenario from the pets and seed options', () => {
    const pets = petsOf(catalogueOf(defaultFixtures, { pets: 7, seed: 3 }), 'default');
    expect(pets).toEqual(generateItems(petsAsked(7, 3, { firstId: 1 })));
    expect(petsOf(catalogueOf(defaultFixtures, { pets: 12, seed: 3 }), 'default')).toHaveLength(12);
    expect(petsOf(catalogueOf(defaultFixtures, { pets: 7, seed: 4 }), 'default')).not.toEqual(pets);
  });

  it('gives the large scenario more pets than the largest page of 100, whatever pets says', () => {
    expect(petsOf(catalogueOf(defaultFixtures, { pets: 5 }), 'large')).toHaveLength(250);
  });

  it('gives the one-of-each-status scenario exactly one pet per status', () => {
    const pets = petsOf(catalogueOf(), 'one-of-each-status');
    expect(pets.map((pet) => pet.status).sort()).toEqual([...statuses].sort());
  });

  it('loads the edge-cases scenario with its unicode names and extreme numbers intact', () => {
    const pets = petsOf(catalogueOf(), 'edge-cases');
    const names = pets.map((pet) => pet.name);
    expect(names).toContain('小白');
    expect(names).toContain('');
    expect(names).toContain('<script>alert("not escaped")</script>');
    expect(pets.map((pet) => pet.categoryId)).toContain(Number.MAX_SAFE_INTEGER);
    expect(pets.some((pet) => pet.status === undefined)).toBe(true);
  });

  it('loads the empty scenario with no pets', () => {
    expect(petsOf(catalogueOf(), 'empty')).toEqual([]);
  });

  it('builds a scenario once and hands the same frozen pets to every store that loads it', () => {
    const catalogue = catalogueOf();
    const first = catalogue.load('one-of-each-status');
    expect(catalogue.load('one-of-each-status')).toBe(first);
    const pet = petsOf(catalogue, 'one-of-each-status')[0] as ExactPet;
    expect(Object.isFrozen(pet)).toBe(true);
    expect(() => {
      (pet as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
  });

  it('refuses an unknown scenario name, listing the known ones', () => {
    const catalogue = catalogueOf();
    expect(() => catalogue.load('nope')).toThrow(FixtureError);
    expect(() => catalogue.load('nope')).toThrow(
      "unknown scenario 'nope' (known: default, edge-cases, empty, large, one-of-each-status)",
    );
  });

  it('generates 300,000 pets without overflowing the call stack', () => {
    const pets = petsOf(catalogueOf(defaultFixtures, { pets: 300_000 }), 'default');
    expect(pets).toHaveLength(300_000);
    expect(pets.at(-1)?.id).toBe(300_000);
  });
});

describe('ScenarioCatalogue with Faker loaded on demand', () => {
  it('loads a generated scenario asynchronously, and a literal one at once', async () => {
    const catalogue = catalogueOf(defaultFixtures, {
      pets: 3,
      generateItems: async (options) => generateItems(options),
    });
    const generated = catalogue.load('default');
    expect(generated).toBeInstanceOf(Promise);
    expect((await generated).snapshots.get('pets')?.all).toHaveLength(3);
    expect(catalogue.load('one-of-each-status')).not.toBeInstanceOf(Promise);
  });
});

describe('ScenarioCatalogue with bad fixtures', () => {
  it.each([
    {
      problem: 'a status outside the enum',
      fixture: onePet({ id: 1, name: 'A', categoryId: 1, status: 'lost' }),
      message: "bad.yaml: field 'pets[0].status' must be one of: available, pending, sold",
    },
    {
      problem: 'a status in another case',
      fixture: onePet({ id: 1, name: 'A', categoryId: 1, status: 'Sold' }),
      message: "bad.yaml: field 'pets[0].status' must be one of: available, pending, sold",
    },
    {
      problem: 'a missing name',
      fixture: onePet({ id: 1, categoryId: 1 }),
      message: "bad.yaml: field 'pets[0].name' is required",
    },
    {
      problem: 'a string categoryId',
      fixture: onePet({ id: 1, name: 'A', categoryId: '3' }),
      message: "bad.yaml: field 'pets[0].categoryId' must be integer",
    },
    {
      problem: 'a field the Pet schema does not name (the mock would serve it)',
      fixture: onePet({ id: 1, name: 'A', categoryId: 1, colour: 'red' }),
      message: "bad.yaml: field 'pets[0].colour' is not allowed here",
    },
    {
      problem: 'two pets with the same id',
      fixture: {
        description: 'twins',
        pets: [
          { id: 1, name: 'A', categoryId: 1 },
          { id: 1, name: 'B', categoryId: 1 },
        ],
      },
      message: 'bad.yaml: pets[1].id repeats id 1',
    },
    {
      problem: 'an id beyond int64',
      fixture: onePet({ id: 9223372036854775808n, name: 'A', categoryId: 1 }),
      message: "bad.yaml: field 'pets[0].id' must be an int64",
    },
    {
      problem: 'an unknown top-level key',
      fixture: { description: 'typo', petz: [] },
      message:
        "scenario 'bad' (bad.yaml) gives items of 'petz', which is no collection of openapi.yaml (its collections: pets): write them under a collection of the document, or map them onto one (--fixture-collection petz=pets",
    },
    {
      problem: 'a count for a collection the document does not have',
      fixture: { description: 'x', generate: { counts: { orders: 3 } } },
      message: "bad.yaml: fixture field 'generate.counts.orders' is not allowed here",
    },
    { problem: 'no description', fixture: { pets: [] }, message: "bad.yaml: fixture field 'description' is required" },
    {
      problem: 'a negative generate count',
      fixture: { description: 'x', generate: { count: -1 } },
      message: "bad.yaml: fixture field 'generate.count' must be >= 0",
    },
  ])('refuses $problem, naming the source and the field', ({ fixture, message }) => {
    expect(errorFor(fixture).message).toContain(message);
  });

  it('accepts ids and categoryIds anywhere in int64, exactly', () => {
    const catalogue = catalogueOf({});
    catalogue.add(
      'big',
      {
        description: 'big',
        pets: [
          { id: 9223372036854775807n, name: 'Max', categoryId: -9223372036854775808n },
          { id: -5, name: 'Negative', categoryId: 0 },
        ],
      },
      'big.yaml',
    );
    expect(petsOf(catalogue, 'big').map((pet) => pet.id)).toEqual([-5, 9223372036854775807n]);
  });

  it('refuses a name that cannot name a scenario', () => {
    expect(() => catalogueOf({}).add('no spaces', { description: 'x' }, 'x.yaml')).toThrow(
      "x.yaml: 'no spaces' cannot name a scenario",
    );
  });

  it('refuses a fixture whose name another source already uses', () => {
    const catalogue = catalogueOf();
    expect(() => catalogue.add('default', { description: 'another' }, '/elsewhere/default.yaml')).toThrow(
      "/elsewhere/default.yaml: scenario name 'default' is already used by fixtures/default.yaml",
    );
  });

  it('numbers generated pets after the highest listed id when a fixture has both', () => {
    const catalogue = catalogueOf({});
    catalogue.add(
      'mixed',
      { description: 'mixed', generate: { count: 3, seed: 2 }, pets: [{ id: 10, name: 'A', categoryId: 1 }] },
      'mixed.yaml',
    );
    const pets = petsOf(catalogue, 'mixed');
    expect(pets.map((pet) => pet.id)).toEqual([10, 11, 12, 13]);
    expect(pets.slice(1)).toEqual(generateItems(petsAsked(3, 2, { firstId: 11 })));
  });

  it('uses the categories of a generate block', () => {
    const catalogue = catalogueOf({});
    catalogue.add('two', { description: 'two', generate: { count: 100, seed: 2, categories: 2 } }, 'two.yaml');
    expect(new Set(petsOf(catalogue, 'two').map((pet) => pet.categoryId))).toEqual(new Set([1, 2]));
  });
});

describe("the kit's own fixtures, which a mock of the kit's document adds without checking them again", () => {
  it('pass the whole check against the kit’s document', () => {
    const unmarked = compileDocument(structuredClone(defaultDocument), 'openapi.yaml');
    const unmarkedApi = describeApi(unmarked);
    const catalogue = new ScenarioCatalogue({
      compiled: unmarked,
      api: unmarkedApi,
      shapes: collectionShapes(unmarkedApi),
      revisions,
      pets: 50,
      seed: 1,
      generateItems,
    });
    for (const [name, fixture] of Object.entries(structuredClone(defaultFixtures))) {
      expect(() => catalogue.add(name, fixture, `fixtures/${name}.yaml`), name).not.toThrow();
    }
  });

  it("are checked against a user's document when asked for, and refused then if its Pet does not fit them", async () => {
    const { createMock } = await import('../../../src/create-mock.js');
    const document = structuredClone(defaultDocument);
    const pet = document.components?.schemas?.NewPet as { required: string[]; properties: Record<string, unknown> };
    pet.properties.nickname = { type: 'string' };
    pet.required.push('nickname');
    // The default scenario is generated from the document: its pets have nicknames.
    const mock = createMock({ document });
    await mock.ready;
    expect(
      mock.store
        .collection('pets')
        .all()
        .every((each) => typeof each.nickname === 'string'),
    ).toBe(true);
    expect(() => createMock({ document, scenario: 'edge-cases' })).toThrow(
      /^scenario 'edge-cases' cannot serve document: fixtures\/edge-cases\.yaml: field 'pets\[0\]\.nickname' is required/,
    );
    await expect(mock.switchScenario('edge-cases')).rejects.toMatchObject({
      code: 'invalid_scenario',
      status: 400,
      message: expect.stringContaining("scenario 'edge-cases' cannot serve document"),
    });
    expect(mock.scenario).toBe('default');
  });
});
