import { stringifyJson } from '../json/exact-json.js';
import type { Handler } from './handler-types.js';
import { idOfRequest, type ItemContext, itemNotFound, type PlacedSemantics } from './item-context.js';

/** A read operation: the item the path names, or 404 (`<item>_not_found`) for any valid id that names none. */
export function readItem(semantics: PlacedSemantics): Handler<ItemContext> {
  const { operation, resource } = semantics;
  return async function read(request, { store }) {
    const id = idOfRequest(semantics, request);
    const revision = store.revision;
    const item = await store.collection(resource.name).get(id);
    if (!item) throw itemNotFound(resource, id);
    return { status: 200, body: item, cacheKey: `${operation.operationId} ${revision} ${stringifyJson(id)}` };
  };
}
