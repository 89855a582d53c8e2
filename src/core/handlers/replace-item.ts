import { writtenValues } from '../model/written-values.js';
import { changedItem } from './change-item.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, type PlacedSemantics } from './item-context.js';

/**
 * A replace operation: the item the path names takes the body's writable
 * fields (a field left out is gone; the id stays), and is answered (200), or
 * 204 where the document lists no body; 404 when no item has that id.
 */
export function replaceItem(semantics: PlacedSemantics): ItemHandler {
  const { resource } = semantics;
  return {
    plan: (request) => ({
      op: 'replace',
      collection: resource.name,
      id: idOfRequest(semantics, request),
      fields: writtenValues(resource, request.body),
    }),
    answer: changedItem(semantics),
  };
}
