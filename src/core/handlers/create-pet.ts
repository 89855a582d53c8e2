import type { ExactNewPet } from '../types/api-types.js';
import { defineHandler } from './define-handler.js';

/**
 * `POST /pets`: stores the pet with a new id and answers 201 with it. Only the
 * fields the NewPet schema defines are kept: a client-sent `id` or unknown
 * field is neither stored nor echoed, and an omitted `status` stays omitted.
 * A full store throws `StoreFullError` (`507 store_full`): nothing is evicted.
 */
export const createPet = defineHandler<'createPet'>((request, { store, newPetFields }) => {
  const fields = Object.entries(request.body).filter(([name]) => newPetFields.includes(name));
  return { status: 201, body: store.create(Object.fromEntries(fields) as ExactNewPet) };
});
