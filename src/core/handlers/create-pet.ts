import { HttpError } from '../errors/http-error.js';
import { IdSpaceExhaustedError, StoreFullError } from '../store/pet-store.js';
import type { NewPet } from '../types/api-types.js';
import { defineHandler } from './define-handler.js';

/**
 * `POST /pets`: stores the pet with a new id and answers 201 with it. Only the
 * fields the NewPet schema defines are kept: a client-sent `id` or unknown
 * field is neither stored nor echoed, and an omitted `status` stays omitted.
 * A full store answers `507 store_full`: nothing is evicted to make room.
 */
export const createPet = defineHandler<'createPet'>((request, { store, newPetFields }) => {
  const fields = Object.entries(request.body).filter(([name]) => newPetFields.includes(name));
  try {
    return { status: 201, body: store.create(Object.fromEntries(fields) as NewPet) };
  } catch (error) {
    if (error instanceof IdSpaceExhaustedError) throw new HttpError('id_space_exhausted', error.message);
    if (error instanceof StoreFullError) {
      throw new HttpError(
        'store_full',
        `the store is full: it holds its maximum of ${error.maxPets} pets (--max-pets); nothing was stored and nothing is evicted. POST /__admin/reset empties it back to the scenario`,
      );
    }
    throw error;
  }
});
