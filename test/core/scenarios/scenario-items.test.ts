import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { describeApi } from '../../../src/core/model/describe-api.js';
import { runScenarioItems, scenarioItems } from '../../../src/core/scenarios/scenario-items.js';
import { generateItems, generateItemsLazily } from '../../../src/core/seed/generate-items.js';
import { isItemStream, type ItemStream } from '../../../src/core/store/item-snapshot.js';
import { createMock, type Mock } from '../../../src/create-mock.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { evolvedDocumentPath } from '../../evolution/support/evolved-documents.js';
import { kitCollection, kitScenario } from '../../support/kit-scenarios.js';

type Item = Record<string, unknown>;

const withCategories = loadDocument(evolvedDocumentPath('with-categories'));
const renamed = loadDocument(evolvedDocumentPath('renamed-to-animals'));

async function mockOf(
  document: OpenAPIV3.Document | undefined,
  options: Parameters<typeof createMock>[0] = {},
): Promise<Mock> {
  const mock = createMock({ ...(document ? { document } : {}), ...options });
  await mock.ready;
  return mock;
}

const idsOf = (items: readonly Item[]) => items.map((item) => item.id);

describe('the scenarios of a document with categories, which an animal’s categoryId refers to', () => {
  it('generates every collection in the default scenario, each animal naming a category that exists', async () => {
    const mock = await mockOf(withCategories, { pets: 12, seed: 4 });
    const categories = mock.store.collection('categories').all();
    const pets = mock.store.collection('pets').all();
    expect(idsOf(categories)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(categories.every((category) => typeof category.name === 'string' && category.name !== '')).toBe(true);
    expect(pets).toHaveLength(12);
    const held = new Set(idsOf(categories));
    expect(pets.every((pet) => held.has(pet.categoryId))).toBe(true);
    expect(new Set(pets.map((pet) => pet.categoryId)).size).toBeGreaterThan(3);
  });

  it('makes a streamed collection into a list where another refers to it, giving the items a list would', () => {
    const api = describeApi(compileDocument(withCategories, 'with-categories.yaml'));
    const stepsOf = () =>
      scenarioItems({
        api,
        where: 'the test',
        fixture: { description: 'generated', generate: { count: 40, counts: { categories: 3 } } },
        literal: {},
        defaults: { pets: 40, seed: 5 },
      });
    const streamOf = (items: readonly Item[]): ItemStream => ({
      length: items.length,
      each: (visit) => (items.forEach(visit), true),
      toArray: () => items,
    });
    const streamed = runScenarioItems(stepsOf(), (options) => streamOf(generateItems(options)));
    const listed = runScenarioItems(stepsOf(), generateItems);
    if (streamed instanceof Promise || listed instanceof Promise) throw new Error('expected the items at once');
    // The animals were read for the categories they name, and the categories for the ids the animals draw.
    expect(streamed.streams).toEqual({});
    expect(streamed.items).toEqual(listed.items);
    expect(streamed.items.pets).toHaveLength(40);
  });

  it('takes a count per collection from a generate block', async () => {
    const mock = await mockOf(withCategories, {
      scenario: { name: 'few', fixture: { description: 'few', generate: { count: 30, counts: { categories: 2 } } } },
    });
    expect(mock.store.collection('categories').size).toBe(2);
    expect(mock.store.collection('pets').size).toBe(30);
    expect(
      new Set(
        mock.store
          .collection('pets')
          .all()
          .map((pet) => pet.categoryId),
      ),
    ).toEqual(new Set([1, 2]));
  });

  it('serves the kit’s literal scenarios, adding the categories their animals refer to', async () => {
    const mock = await mockOf(withCategories, { scenario: 'edge-cases' });
    const pets = mock.store.collection('pets').all();
    expect(pets).toEqual(kitScenario('edge-cases').items);
    const referred = [...new Set(pets.map((pet) => pet.categoryId))].sort((a, b) => (a! < b! ? -1 : 1));
    expect(idsOf(mock.store.collection('categories').all())).toEqual(referred);
  });

  it('refuses a fixture whose animals name a category its own categories do not hold, naming the item', () => {
    expect(() =>
      createMock({
        document: withCategories,
        scenario: {
          name: 'mine',
          source: 'mine.yaml',
          fixture: {
            description: 'mine',
            categories: [{ id: 1, name: 'Dogs' }],
            pets: [
              { id: 1, name: 'Rex', categoryId: 1 },
              { id: 2, name: 'Tom', categoryId: 7 },
            ],
          },
        },
      }),
    ).toThrow(
      "scenario 'mine' (mine.yaml): pets[1].categoryId is 7, which names no category: the scenario's categories have ids 1",
    );
  });
});

describe('the scenarios of a document that renamed /pets to /animals', () => {
  it('starts its default scenario, generated, with its animals', async () => {
    const mock = await mockOf(renamed);
    expect(mock.store.collection('animals').size).toBe(50);
  });

  it('refuses a built-in scenario whose items name no collection of the document only when asked for, saying what it lacks', async () => {
    expect(() => createMock({ document: renamed, scenario: 'one-of-each-status' })).toThrow(
      `scenario 'one-of-each-status' (fixtures/one-of-each-status.yaml) gives items of '${kitCollection}', which is no collection of document (its collections: animals): write them under a collection of the document, or map them onto one (--fixture-collection ${kitCollection}=animals; fixtureCollections: { ${kitCollection}: 'animals' } in-process)`,
    );
    const mock = await mockOf(renamed);
    await expect(mock.switchScenario('one-of-each-status')).rejects.toMatchObject({
      code: 'invalid_scenario',
      status: 400,
    });
    expect(mock.scenario).toBe('default');
    expect(mock.scenarios().map((each) => each.name)).toContain('one-of-each-status');
  });

  it('serves every built-in scenario once its pets are mapped onto the animals', async () => {
    for (const name of ['edge-cases', 'one-of-each-status', 'empty', 'large']) {
      const mock = await mockOf(renamed, { scenario: name, fixtureCollections: { [kitCollection]: 'animals' } });
      const { items, generate } = kitScenario(name);
      const animals = mock.store.collection('animals').all();
      expect(animals, name).toHaveLength(generate ? (generate.count ?? 50) : items.length);
      if (!generate) expect(animals, name).toEqual(items);
    }
  });

  it('refuses a user’s fixture that names no collection at start-up, naming the scenario, the file and the mismatch', () => {
    expect(() =>
      createMock({
        document: renamed,
        scenario: { name: 'old', source: 'old.yaml', fixture: { description: 'old', pets: [] } },
      }),
    ).toThrow("scenario 'old' (old.yaml) gives items of 'pets', which is no collection of document");
  });

  it('refuses a mapping onto a collection the document does not have', () => {
    expect(() => createMock({ document: renamed, fixtureCollections: { pets: 'beasts' } })).toThrow(
      "fixture key 'pets' is mapped onto 'beasts', which is no collection of document (its collections: animals)",
    );
  });
});

describe('the scenarios of the kit’s document, its generated pets streamed', () => {
  it('writes the pets the mock’s generator streams after the literal ones, without a list, the same pets a list gives', async () => {
    const fixture = {
      description: 'one literal pet, then generated ones',
      pets: [{ id: 4, name: 'Literal', categoryId: 2, status: 'sold' }],
      generate: { count: 20_000, seed: 3 },
    };
    let lists = 0;
    const counted: Parameters<typeof createMock>[0] = {
      generateItems: (options) => {
        const made = generateItemsLazily(options);
        if (!isItemStream(made)) throw new Error('expected a stream');
        return { length: made.length, each: (visit) => made.each(visit), toArray: () => (lists++, made.toArray()) };
      },
    };
    const streamed = (await mockOf(undefined, { ...counted, scenario: { name: 'mine', fixture } })).store
      .collection('pets')
      .all();
    const listed = (await mockOf(undefined, { generateItems, scenario: { name: 'mine', fixture } })).store
      .collection('pets')
      .all();
    expect(lists).toBe(0);
    expect(streamed).toHaveLength(20_001);
    expect(streamed[0]?.name).toBe('Literal');
    expect(streamed[1]?.id).toBe(5);
    expect(JSON.stringify(streamed)).toBe(JSON.stringify(listed));
  });
});
