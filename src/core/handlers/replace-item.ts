import { writtenValues } from '../model/written-values.js';
import { changedItem } from './change-item.js';
import type { ItemHandler } from './handler-types.js';
import { idOfRequest, referencesOf, type PlacedSemantics } from './item-context.js';

/**
 * A replace operation: the item the path names takes the body's writable
 * fields (a field left out is gone; the id stays), and is answered (200), or
 * 204 where the document lists no body; 404 when no item has that id; 400
 * `invalid_reference` when a reference it sets names no item.
 */
export function replaceItem(semantics: PlacedSemantics): ItemHandler {
  const { resource } = semantics;
  const refers = resource.references.length > 0;
  return {
    plan: (request) => {
      const fields = writtenValues(resource, request.body);
      const requires = refers ? referencesOf(resource, fields) : undefined;
      const id = idOfRequest(semantics, request);
      return requires
        ? { op: 'replace', collection: resource.name, id, fields, requires }
        : { op: 'replace', collection: resource.name, id, fields };
    },
    answer: changedItem(semantics),
  };
}
