import type { OpenAPIV3 } from 'openapi-types';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { resolveRef } from '../openapi/resolve-ref.js';

/** A filter of the stored items, read from the API's document: a query parameter and the values it takes. */
export interface StoreFilter {
  name: string;
  /** Its schema as the document writes it (a `$ref` stays one: the admin document carries the API's schemas). */
  schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;
  /** The values it takes (its schema's `enum`). */
  values: unknown[];
}

const filtersOf = new WeakMap<CompiledDocument, StoreFilter[]>();

/**
 * The filters the admin API's `GET /__admin/store` takes, derived from the
 * API's document: each query parameter with an `enum` schema of an operation
 * that reads a collection (a GET on a path without parameters), once by name,
 * in the document's order. For openapi.yaml that is listPets' `status`; no
 * parameter is named here.
 */
export function storeFilters(api: CompiledDocument): StoreFilter[] {
  let filters = filtersOf.get(api);
  if (filters) return filters;
  filters = [];
  const seen = new Set<string>();
  for (const operation of api.operations) {
    if (operation.method !== 'GET' || operation.segments.some((segment) => typeof segment !== 'string')) continue;
    const pointer = `${operation.pathTemplate}/${operation.method.toLowerCase()}`;
    const path = api.document.paths[operation.pathTemplate];
    // The operation's own parameters first: one of them overrides the path's of the same name.
    const parameters = [...(operation.definition.parameters ?? []), ...(path?.parameters ?? [])];
    for (const given of parameters) {
      const parameter = resolveRef<OpenAPIV3.ParameterObject>(api.document, given, pointer).value;
      if (parameter.in !== 'query' || !parameter.schema || seen.has(parameter.name)) continue;
      const schema = resolveRef<OpenAPIV3.SchemaObject>(api.document, parameter.schema, pointer).value;
      if (!Array.isArray(schema.enum) || schema.enum.length === 0) continue;
      seen.add(parameter.name);
      filters.push({ name: parameter.name, schema: parameter.schema, values: [...schema.enum] });
    }
  }
  filtersOf.set(api, filters);
  return filters;
}
