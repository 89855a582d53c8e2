import { writtenValues } from '../model/written-values.js';
import type { Handler } from './handler-types.js';
import { changeItem, type ItemContext, type PlacedSemantics } from './item-context.js';

/**
 * A replace operation: the item the path names takes the body's writable
 * fields (a field left out is gone; the id stays), and is answered (200), or
 * 204 where the document lists no body; 404 when no item has that id.
 */
export function replaceItem(semantics: PlacedSemantics): Handler<ItemContext> {
  return changeItem(semantics, (collection, id, body) =>
    collection.replace(id, writtenValues(semantics.resource, body)),
  );
}
