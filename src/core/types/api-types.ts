import type { components, operations } from '../../generated/openapi-types.js';

/** The API's own types, generated from openapi.yaml (see `npm run types`). */
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type ErrorBody = components['schemas']['Error'];
export type OperationId = keyof operations;
