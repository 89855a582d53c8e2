import type { OpenAPIV3 } from 'openapi-types';
import { adminDocumentTemplate } from '../../generated/admin-document.js';
import { fillAdminDocument } from './fill-admin-document.js';
import type { StoreFilter } from './store-filters.js';

/** The most items one `GET /__admin/store` lists (`limit`'s maximum in admin-api.yaml). */
export const maxStoreReadLimit = 1000;

/**
 * The admin API's document as the kit serves it beside an API: admin-api.yaml
 * (embedded by `npm run generate`, which checked it) filled in with the API's
 * schemas, collections and list filters (see fill-admin-document.ts).
 */
export function createAdminDocument(
  apiSchemas: Readonly<Record<string, OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject>>,
  /** The API's collections (`pets`): a store's state counts the items of each. */
  collections: readonly string[],
  /** The query parameters `GET /store` takes besides `limit`: the API's own filters (see store-filters.ts). */
  filters: readonly StoreFilter[] = [],
): OpenAPIV3.Document {
  return fillAdminDocument(adminDocumentTemplate, apiSchemas, collections, filters);
}
