/**
 * A scenario as written in fixtures/ (YAML or JSON), or passed as an object:
 * literal items of each collection, by the collection's name (`pets` in the
 * kit's document), generated items of the document's first collection, or
 * both (generated ids follow the highest literal one).
 */
export interface Fixture {
  description: string;
  generate?: { count?: number; seed?: number; categories?: number };
  /** Each collection's items, by its name (`pets: [...]` in the kit's document). */
  [collection: string]: unknown;
}

const fixtureProperties = {
  description: { type: 'string' },
  generate: {
    type: 'object',
    additionalProperties: false,
    properties: {
      count: { type: 'integer', minimum: 0, maximum: 10_000_000 },
      seed: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
      categories: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    },
  },
};

/** The fixture format for a document's collections, apart from their items (checked by the one item-list check). */
export function fixtureSchema(collections: readonly string[]) {
  return {
    type: 'object',
    required: ['description'],
    additionalProperties: false,
    properties: {
      ...fixtureProperties,
      ...Object.fromEntries(collections.map((name) => [name, { type: 'array' }])),
    },
  };
}

/** A fixture that cannot be used. Its message names the fixture and the field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}
