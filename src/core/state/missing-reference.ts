import { HttpError } from '../errors/http-error.js';
import type { RequiredReference } from './state-store.js';

/**
 * The refusal of a write whose body refers to an item that does not exist:
 * `400 invalid_reference`, naming the field and the item, the same from
 * every implementation of the state port (memory, Redis).
 */
export function missingReference(reference: RequiredReference): HttpError {
  const message = `refers to ${reference.itemName} ${String(reference.id)}, which does not exist (${reference.collection} holds no such item)`;
  return new HttpError('invalid_reference', `body field '${reference.field}' ${message}`, {
    details: [{ location: 'body', field: reference.field, message }],
  });
}
