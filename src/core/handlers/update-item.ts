import { patchValues } from '../model/written-values.js';
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
 * An update operation (a JSON merge patch, RFC 7396): the writable fields the
 * body names take its values, `null` removes one, the rest stay; the item is
 * answered (200), or 204 where the document lists no body; 404 when no item
 * has that id.
 */
export function updateItem(semantics: PlacedSemantics): Handler<ItemContext> {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 200, 204);
  const withBody = answersWithBody(operation, status);
  return async function update(request, { store }) {
    const id = idOfRequest(semantics, request);
    const item = await store.collection(resource.name).update(id, patchValues(resource, request.body));
    if (!item) throw itemNotFound(resource, id);
    return withBody ? { status, body: item } : { status };
  };
}
