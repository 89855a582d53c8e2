import type { components as exact, operations } from '../../generated/openapi-types.js';
import type { components as parsed } from '../../generated/openapi-parsed-types.js';

/**
 * The API's types, generated from openapi.yaml (`npm run generate`), as an
 * app reads the API's JSON with `JSON.parse` or `response.json()`: every
 * integer a `number`, so that `a.id - b.id` and `Math.max(...ids)` work.
 */
export type Pet = parsed['schemas']['Pet'];
export type NewPet = parsed['schemas']['NewPet'];
export type Pets = parsed['schemas']['Pets'];
export type PetStatus = parsed['schemas']['PetStatus'];
export type ErrorBody = parsed['schemas']['Error'];

/**
 * The same pets as the kit holds them (its store, fixtures, scenarios): int64
 * fields exact, a `number` up to 2^53−1 and a `bigint` beyond (see
 * docs/in-process.md, "Numbers beyond 2^53").
 */
export type ExactPet = exact['schemas']['Pet'];
export type ExactNewPet = exact['schemas']['NewPet'];
export type OperationId = keyof operations;
