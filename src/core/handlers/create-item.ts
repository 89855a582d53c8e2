import { writtenValues } from '../model/written-values.js';
import type { ItemHandler } from './handler-types.js';
import { documentedStatus, type PlacedSemantics } from './item-context.js';

/**
 * A create operation: stores the item with a new id and answers it (201, or
 * the 200 the document lists instead). Only the fields the item schema names
 * and a body may set are kept (see written-values.ts): a client-sent id or
 * unknown field is neither stored nor echoed, and an omitted field stays
 * omitted. A full store refuses it (`507 store_full`): nothing is evicted.
 */
export function createItem({ operation, resource }: PlacedSemantics): ItemHandler {
  const status = documentedStatus(operation, 201, 200);
  const collection = resource.name;
  return {
    plan: (request) => ({ op: 'create', collection, fields: writtenValues(resource, request.body) }),
    answer: (_request, { item }) => ({ status, body: item }),
  };
}
