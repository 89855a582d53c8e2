import type { ItemHandler } from './handler-types.js';
import { idOfRequest, itemNotFound, type PlacedSemantics } from './item-context.js';

/** A read operation: the item the path names, or 404 (`<item>_not_found`) for any valid id that names none. */
export function readItem(semantics: PlacedSemantics): ItemHandler {
  const { resource } = semantics;
  const collection = resource.name;
  return {
    plan: (request) => ({ op: 'get', collection, id: idOfRequest(semantics, request) }),
    answer: (request, { item }) => {
      if (!item) throw itemNotFound(resource, idOfRequest(semantics, request));
      return { status: 200, body: item };
    },
    sameAtRevision: true,
  };
}
