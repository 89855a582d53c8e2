import type { OpenAPIV3 } from 'openapi-types';
import type { StoreFilter } from './store-filters.js';

type Schema = OpenAPIV3.SchemaObject & Record<string, unknown>;

/**
 * The admin API's document (src/core/admin/admin-api.yaml), with what depends on the API's document filled in: the
 * API's schemas beside the admin's own (named `Admin…`, so that they never
 * clash; the admin API's Error is the API's), a count of each collection's
 * items wherever a store's state is told (`x-petstore-collection-counts`),
 * the collections' names where a collection is named
 * (`x-petstore-collection-names`), and the API's list filters as `GET
 * /store`'s query parameters (`x-petstore-store-filters`).
 */
export function fillAdminDocument(
  /** The admin API's document as admin-api.yaml writes it. */
  template: OpenAPIV3.Document,
  apiSchemas: Readonly<Record<string, OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject>>,
  /** The API's collections (`pets`): a store's state counts the items of each. */
  collections: readonly string[],
  /** The query parameters `GET /store` takes besides `limit`: the API's own filters (see store-filters.ts). */
  filters: readonly StoreFilter[] = [],
): OpenAPIV3.Document {
  const document = structuredClone(template);
  const schemas = document.components?.schemas as Record<string, Schema>;
  for (const schema of [schemas.AdminStoreState, (schemas.AdminSessions?.properties?.sessions as Schema)?.items]) {
    const counted = schema as Schema | undefined;
    if (!counted?.['x-petstore-collection-counts']) throw new Error('admin-api.yaml lost a collection count');
    delete counted['x-petstore-collection-counts'];
    const required = counted.required ?? [];
    const at = required.indexOf('scenario') + 1;
    counted.required = [...required.slice(0, at), ...collections, ...required.slice(at)];
    const properties = Object.entries(counted.properties ?? {});
    const after = properties.findIndex(([name]) => name === 'scenario') + 1;
    counted.properties = Object.fromEntries([
      ...properties.slice(0, after),
      ...collections.map((name) => [name, { type: 'integer', minimum: 0 }]),
      ...properties.slice(after),
    ]);
  }
  const named = (schema: Schema | undefined): void => {
    if (!schema?.['x-petstore-collection-names']) throw new Error('admin-api.yaml lost a collection name');
    delete schema['x-petstore-collection-names'];
    schema.enum = [...collections];
  };
  const store = document.paths['/store']?.get as OpenAPIV3.OperationObject & Record<string, unknown>;
  const resource = (store.parameters ?? []).find(
    (parameter) => (parameter as OpenAPIV3.ParameterObject).name === 'resource',
  ) as OpenAPIV3.ParameterObject | undefined;
  named(resource?.schema as Schema | undefined);
  named(schemas.AdminStoredItems?.properties?.resource as Schema | undefined);
  if (!store['x-petstore-store-filters']) throw new Error('admin-api.yaml lost the store filters');
  delete store['x-petstore-store-filters'];
  store.parameters = [
    ...(store.parameters ?? []),
    ...filters.map(({ name, schema }) => ({ name, in: 'query', required: false, schema })),
  ];
  (document.components as OpenAPIV3.ComponentsObject).schemas = { ...apiSchemas, ...schemas };
  return document;
}
