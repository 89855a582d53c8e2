import { writtenValues } from '../model/written-values.js';
import type { ItemHandler } from './handler-types.js';
import { documentedStatus, referencesOf, type PlacedSemantics } from './item-context.js';

/**
 * A create operation: stores the item with a new id and answers it (201, or
 * the 200 the document lists instead). Only the fields the item schema names
 * and a body may set are kept (see written-values.ts): a client-sent id or
 * unknown field is neither stored nor echoed, and an omitted field stays
 * omitted. A full store refuses it (`507 store_full`): nothing is evicted; a
 * body whose reference names no item (`categoryId`, where the document has
 * categories) is refused (`400 invalid_reference`) in the same store call.
 */
export function createItem({ operation, resource }: PlacedSemantics): ItemHandler {
  const status = documentedStatus(operation, 201, 200);
  const collection = resource.name;
  const refers = resource.references.length > 0;
  return {
    plan: (request) => {
      const fields = writtenValues(resource, request.body);
      const requires = refers ? referencesOf(resource, fields) : undefined;
      return requires ? { op: 'create', collection, fields, requires } : { op: 'create', collection, fields };
    },
    answer: (_request, { item }) => ({ status, body: item }),
  };
}
