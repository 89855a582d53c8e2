import type { ValidRequest } from '../types/valid-request.js';
import type { ItemHandler } from './handler-types.js';
import type { PlacedSemantics } from './item-context.js';

/**
 * A list operation: the first `limit` items in ascending id order (the page
 * size the document names, its default when absent; every item when the
 * operation has none), only those whose fields equal each filter given.
 * Until the store changes, the same query gives the same page, so the page
 * is cached at the store's revision.
 */
export function listItems({ resource, page, filters }: PlacedSemantics): ItemHandler {
  const collection = resource.name;
  const limitOf = (request: ValidRequest): number => {
    const asked = page ? (request.query[page.name] ?? page.default) : undefined;
    return typeof asked === 'number' ? asked : Number.POSITIVE_INFINITY;
  };
  return {
    plan: (request) => {
      const chosen: Record<string, unknown> = {};
      for (const filter of filters) {
        const value = request.query[filter];
        if (value !== undefined) chosen[filter] = value;
      }
      return { op: 'list', collection, query: { limit: limitOf(request), filters: chosen } };
    },
    answer: (_request, { items }) => ({ status: 200, body: items }),
    sameAtRevision: true,
  };
}
