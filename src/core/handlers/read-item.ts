import { stringifyJson } from '../json/exact-json.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, itemNotFound, type PlacedSemantics } from './item-context.js';

/** A read operation: the item the path names, or 404 (`<item>_not_found`) for any valid id that names none. */
export function readItem(semantics: PlacedSemantics): ItemHandler {
  const { operation, resource } = semantics;
  const collection = resource.name;
  return {
    plan: (request) => ({ op: 'get', collection, id: idOfRequest(semantics, request) }),
    answer: (request, { revision, item }) => {
      const id = idOfRequest(semantics, request);
      if (!item) throw itemNotFound(resource, id);
      return { status: 200, body: item, cacheKey: `${operation.operationId} ${revision} ${stringifyJson(id)}` };
    },
  };
}
