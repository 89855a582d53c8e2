import type { ExactPet } from '../types/api-types.js';

/**
 * A scenario as written in fixtures/ (YAML or JSON), or passed as an object:
 * literal pets, generated pets, or both (generated ids follow the highest
 * literal one).
 */
export interface Fixture {
  description: string;
  generate?: { count?: number; seed?: number; categories?: number };
  pets?: ExactPet[];
}

/** The fixture format, apart from the pets (checked by the one pet-list check). */
export const fixtureSchema = {
  type: 'object',
  required: ['description'],
  additionalProperties: false,
  properties: {
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
    pets: { type: 'array' },
  },
};

/** A fixture that cannot be used. Its message names the fixture and the field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}
