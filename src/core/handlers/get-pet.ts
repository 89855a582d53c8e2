import { HttpError } from '../errors/http-error.js';
import { defineHandler } from './define-handler.js';

/** `GET /pets/{petId}` (deprecated): the pet, or 404 for any valid int64 that names none. */
export const getPet = defineHandler<'getPet'>((request, { store }) => {
  const pet = store.get(request.path.petId);
  if (!pet) throw new HttpError('pet_not_found', `no pet has id ${request.path.petId}`);
  return { status: 200, body: pet, cacheKey: `getPet ${store.revision} ${pet.id}` };
});
