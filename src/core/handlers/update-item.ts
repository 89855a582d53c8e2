import { patchValues } from '../model/written-values.js';
import { changedItem } from './change-item.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, referencesOf, type PlacedSemantics } from './item-context.js';

/**
 * An update operation (a JSON merge patch, RFC 7396): the writable fields the
 * body names take its values, `null` removes one, the rest stay; the item is
 * answered (200), or 204 where the document lists no body; 404 when no item
 * has that id; 400 `invalid_reference` when a reference it sets names no item.
 */
export function updateItem(semantics: PlacedSemantics): ItemHandler {
  const { resource } = semantics;
  const refers = resource.references.length > 0;
  return {
    plan: (request) => {
      const patch = patchValues(resource, request.body);
      const requires = refers ? referencesOf(resource, patch) : undefined;
      const id = idOfRequest(semantics, request);
      return requires
        ? { op: 'update', collection: resource.name, id, patch, requires }
        : { op: 'update', collection: resource.name, id, patch };
    },
    answer: changedItem(semantics),
  };
}
