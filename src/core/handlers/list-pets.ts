import { defineHandler } from './define-handler.js';

/**
 * `GET /pets`: the first `limit` pets in ascending id order, only those with
 * `status` when given. Until the store changes, the same query gives the same
 * page, so the page is cached under the store's version.
 */
export const listPets = defineHandler<'listPets'>((request, { store }) => {
  const { limit = 20, status } = request.query;
  return {
    status: 200,
    body: store.list({ limit, status }),
    cacheKey: `listPets ${store.revision} ${status ?? ''} ${limit}`,
  };
});
