/**
 * A scenario as written in fixtures/ (YAML or JSON), or passed as an object:
 * literal items of each collection, by the collection's name (`pets` in the
 * kit's document), generated items of every collection, or both (each
 * collection's generated ids follow its highest literal one).
 */
export interface Fixture {
  description: string;
  generate?: GenerateBlock;
  /** Each collection's items, by its name (`pets: [...]` in the kit's document). */
  [collection: string]: unknown;
}

/** What a fixture's `generate` block asks for. */
export interface GenerateBlock {
  /** Items of each collection (default `--pets`). */
  count?: number;
  /** Items of some collections, by name, instead of `count` (`{ categories: 5 }`). */
  counts?: Record<string, number>;
  /** The seed (default `--seed`). */
  seed?: number;
  /** Integers that refer to nothing are drawn from 1 to this (default 5): an animal's `categoryId` in the kit's document. */
  categories?: number;
}

/** The keys of a fixture that are not collections. */
export const fixtureSettings: readonly string[] = ['description', 'generate'];

const itemCount = { type: 'integer', minimum: 0, maximum: 10_000_000 };

/** The fixture format for a document's collections, apart from their items (checked by the one item-list check). */
export function fixtureSchema(collections: readonly string[]) {
  return {
    type: 'object',
    required: ['description'],
    additionalProperties: false,
    properties: {
      description: { type: 'string' },
      generate: {
        type: 'object',
        additionalProperties: false,
        properties: {
          count: itemCount,
          counts: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(collections.map((name) => [name, itemCount])),
          },
          seed: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
          categories: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        },
      },
      ...Object.fromEntries(collections.map((name) => [name, { type: 'array' }])),
    },
  };
}

/** A fixture that cannot be used. Its message names the scenario, the fixture (its file) and the problem. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}
