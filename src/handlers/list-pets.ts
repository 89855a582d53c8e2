import { defineHandler } from './define-handler.js';

/** `GET /pets`: the first `limit` pets in ascending id order, only those with `status` when given. */
export const listPets = defineHandler<'listPets'>((request, { store }) => ({
  status: 200,
  body: store.list({ limit: request.query.limit ?? 20, status: request.query.status }),
}));
