import { stringifyJson } from '../json/exact-json.js';
import type { Handler } from './handler-types.js';
import type { ItemContext, PlacedSemantics } from './item-context.js';

/**
 * A list operation: the first `limit` items in ascending id order (the page
 * size the document names, its default when absent; every item when the
 * operation has none), only those whose fields equal each filter given.
 * Until the store changes, the same query gives the same page, so the page
 * is cached under the store's revision.
 */
export function listItems({ operation, resource, page, filters }: PlacedSemantics): Handler<ItemContext> {
  const { operationId } = operation;
  return async function list(request, { store }) {
    const asked = page ? (request.query[page.name] ?? page.default) : undefined;
    const limit = typeof asked === 'number' ? asked : Number.POSITIVE_INFINITY;
    const chosen: Record<string, unknown> = {};
    let key = '';
    for (const filter of filters) {
      const value = request.query[filter];
      if (value === undefined) continue;
      chosen[filter] = value;
      key += ` ${filter}=${stringifyJson(value)}`;
    }
    const revision = store.revision;
    const items = await store.collection(resource.name).list({ limit, filters: chosen });
    return { status: 200, body: items, cacheKey: `${operationId} ${revision} ${limit}${key}` };
  };
}
