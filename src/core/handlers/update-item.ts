import { patchValues } from '../model/written-values.js';
import type { Handler } from './handler-types.js';
import { changeItem, type ItemContext, type PlacedSemantics } from './item-context.js';

/**
 * An update operation (a JSON merge patch, RFC 7396): the writable fields the
 * body names take its values, `null` removes one, the rest stay; the item is
 * answered (200), or 204 where the document lists no body; 404 when no item
 * has that id.
 */
export function updateItem(semantics: PlacedSemantics): Handler<ItemContext> {
  return changeItem(semantics, (collection, id, body) => collection.update(id, patchValues(semantics.resource, body)));
}
