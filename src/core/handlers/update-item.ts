import { patchValues } from '../model/written-values.js';
import { changedItem } from './change-item.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, type PlacedSemantics } from './item-context.js';

/**
 * An update operation (a JSON merge patch, RFC 7396): the writable fields the
 * body names take its values, `null` removes one, the rest stay; the item is
 * answered (200), or 204 where the document lists no body; 404 when no item
 * has that id.
 */
export function updateItem(semantics: PlacedSemantics): ItemHandler {
  const { resource } = semantics;
  return {
    plan: (request) => ({
      op: 'update',
      collection: resource.name,
      id: idOfRequest(semantics, request),
      patch: patchValues(resource, request.body),
    }),
    answer: changedItem(semantics),
  };
}
