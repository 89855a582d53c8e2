import type { Handler } from './handler-types.js';
import {
  answersWithBody,
  documentedStatus,
  idOfRequest,
  type ItemContext,
  itemNotFound,
  type PlacedSemantics,
} from './item-context.js';

/**
 * A delete operation: the item the path names is gone (204, or the 200 or
 * 202 the document lists instead, with the deleted item where it documents
 * a body); 404 when no item has that id, a second delete of it included.
 */
export function deleteItem(semantics: PlacedSemantics): Handler<ItemContext> {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 204, 200, 202);
  const withBody = answersWithBody(operation, status);
  return async function remove(request, { store }) {
    const id = idOfRequest(semantics, request);
    const collection = store.collection(resource.name);
    const item = withBody ? await collection.get(id) : undefined;
    if (!(await collection.delete(id))) throw itemNotFound(resource, id);
    return withBody ? { status, body: item } : { status };
  };
}
