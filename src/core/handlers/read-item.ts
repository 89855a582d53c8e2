import { stringifyJson } from '../json/exact-json.js';
import type { ValidRequest } from '../types/valid-request.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, itemNotFound, type PlacedSemantics } from './item-context.js';

/** A read operation: the item the path names, or 404 (`<item>_not_found`) for any valid id that names none. */
export function readItem(semantics: PlacedSemantics): ItemHandler {
  const { operation, resource } = semantics;
  const collection = resource.name;
  const cacheKey = (request: ValidRequest, revision: number): string => {
    const id = idOfRequest(semantics, request);
    // An integer id is its digits in JSON (a bigint's too, which the native writer refuses): no writer needed.
    const text = typeof id === 'number' || typeof id === 'bigint' ? String(id) : stringifyJson(id);
    return `${operation.operationId} ${revision} ${text}`;
  };
  return {
    plan: (request) => ({ op: 'get', collection, id: idOfRequest(semantics, request) }),
    answer: (request, { revision, item }) => {
      if (!item) throw itemNotFound(resource, idOfRequest(semantics, request));
      return { status: 200, body: item, cacheKey: cacheKey(request, revision) };
    },
    cacheKey,
  };
}
