import { writtenValues } from '../model/written-values.js';
import type { Handler } from './handler-types.js';
import { documentedStatus, type ItemContext, type PlacedSemantics } from './item-context.js';

/**
 * A create operation: stores the item with a new id and answers it (201, or
 * the 200 the document lists instead). Only the fields the item schema names
 * and a body may set are kept (see written-values.ts): a client-sent id or
 * unknown field is neither stored nor echoed, and an omitted field stays
 * omitted. A full store throws `StoreFullError` (`507 store_full`): nothing is evicted.
 */
export function createItem({ operation, resource }: PlacedSemantics): Handler<ItemContext> {
  const status = documentedStatus(operation, 201, 200);
  return async function create(request, { store }) {
    const item = await store.collection(resource.name).create(writtenValues(resource, request.body));
    return { status, body: item };
  };
}
