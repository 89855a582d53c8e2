import type { Item } from '../store/item-snapshot.js';
import type { ItemHandler } from './handler-types.js';
import { answersWithBody, documentedStatus, idOfRequest, itemNotFound, type PlacedSemantics } from './item-context.js';

/**
 * The answer of a write on the item the path names (a replace, an update):
 * the item as the write left it, 200, or 204 where the document lists no
 * body; 404 when no item has that id.
 */
export function changedItem(semantics: PlacedSemantics): ItemHandler['answer'] {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 200, 204);
  const withBody = answersWithBody(operation, status);
  return (request, { item }) => {
    if (!item) throw itemNotFound(resource, idOfRequest(semantics, request));
    return withBody ? { status, body: item as Item } : { status };
  };
}
