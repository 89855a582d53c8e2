import { writtenValues } from '../model/written-values.js';
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
 * A replace operation: the item the path names takes the body's writable
 * fields (a field left out is gone; the id stays), and is answered (200), or
 * 204 where the document lists no body; 404 when no item has that id.
 */
export function replaceItem(semantics: PlacedSemantics): Handler<ItemContext> {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 200, 204);
  const withBody = answersWithBody(operation, status);
  return async function replace(request, { store }) {
    const id = idOfRequest(semantics, request);
    const item = await store.collection(resource.name).replace(id, writtenValues(resource, request.body));
    if (!item) throw itemNotFound(resource, id);
    return withBody ? { status, body: item } : { status };
  };
}
