import type { ApiModel } from '../model/describe-api.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { createItemListCheck, ItemListError } from './check-item-list.js';
import type { Item } from './item-snapshot.js';

/** `pets`, `pets and orders`: the collections of saved items, for messages. */
export function describeCollections(items: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(items);
  return names.length === 0 ? 'items' : names.join(' and ');
}
/** Saved items (a state file), each collection checked by the one item-list check, like a fixture's. */
export function checkSavedItems(
  compiled: CompiledDocument,
  api: ApiModel,
  saved: { items: Readonly<Record<string, unknown>>; source: string },
): Record<string, Item[]> {
  const checked: Record<string, Item[]> = {};
  for (const [name, items] of Object.entries(saved.items)) {
    const resource = api.resource(name);
    if (!resource) {
      throw new ItemListError(
        `${saved.source}: holds '${name}', which is no collection of the document (collections: ${api.resources.map((each) => each.name).join(', ')})`,
      );
    }
    checked[name] = createItemListCheck(compiled, resource)(items, saved.source);
  }
  return checked;
}
