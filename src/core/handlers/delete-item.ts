import type { ItemHandler } from './handler-types.js';
import { answersWithBody, documentedStatus, idOfRequest, itemNotFound, type PlacedSemantics } from './item-context.js';

/**
 * A delete operation: the item the path names is gone (204, or the 200 or
 * 202 the document lists instead, with the deleted item where it documents
 * a body); 404 when no item has that id, a second delete of it included.
 */
export function deleteItem(semantics: PlacedSemantics): ItemHandler {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 204, 200, 202);
  const returning = answersWithBody(operation, status);
  const collection = resource.name;
  return {
    plan: (request) => ({ op: 'delete', collection, id: idOfRequest(semantics, request), returning }),
    answer: (request, { found, item }) => {
      if (!found) throw itemNotFound(resource, idOfRequest(semantics, request));
      return returning ? { status, body: item } : { status };
    },
  };
}
