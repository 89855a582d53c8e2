import type { OpenAPIV3 } from 'openapi-types';
import { describeApi, type Resource } from '../model/describe-api.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { resolveRef } from '../openapi/resolve-ref.js';

/** A filter of the stored items, read from the API's document: a query parameter and the values it takes. */
export interface StoreFilter {
  name: string;
  /** Its schema as the document writes it (a `$ref` stays one: the admin document carries the API's schemas). */
  schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;
  /** The values it takes (its schema's `enum`), or none when it takes any value of its type. */
  values: unknown[];
}

const filtersOf = new WeakMap<CompiledDocument, Map<string, StoreFilter[]>>();

/** The fields of a collection's items, its id first, as the document names them (the dashboard's columns). */
export function storeFields(resource: Resource): string[] {
  return [resource.idField, ...resource.fields.filter((field) => field !== resource.idField)];
}

/**
 * The filters of one collection's items that the admin API's `GET
 * /__admin/store?resource=…` takes, derived from the API's document by its
 * model: the filters of the collection's list operations, once by name, in the
 * document's order. For openapi.yaml's pets that is listPets' `status`; no
 * parameter is named here.
 */
export function resourceFilters(api: CompiledDocument, resource: Resource): StoreFilter[] {
  let byResource = filtersOf.get(api);
  if (!byResource) {
    byResource = new Map();
    filtersOf.set(api, byResource);
  }
  let filters = byResource.get(resource.name);
  if (filters) return filters;
  filters = [];
  const seen = new Set<string>();
  for (const each of describeApi(api).operations) {
    if (each.kind !== 'list' || each.resource !== resource) continue;
    const { operation } = each;
    const path = api.document.paths[operation.pathTemplate];
    // The operation's own parameters first: one of them overrides the path's of the same name.
    const parameters = [...(operation.definition.parameters ?? []), ...(path?.parameters ?? [])];
    for (const given of parameters) {
      const parameter = resolveRef<OpenAPIV3.ParameterObject>(api.document, given, '').value;
      if (!each.filters.includes(parameter.name) || !parameter.schema || seen.has(parameter.name)) continue;
      const schema = resolveRef<OpenAPIV3.SchemaObject>(api.document, parameter.schema, '').value;
      seen.add(parameter.name);
      filters.push({ name: parameter.name, schema: parameter.schema, values: [...(schema.enum ?? [])] });
    }
  }
  byResource.set(resource.name, filters);
  return filters;
}

/**
 * Every filter `GET /__admin/store` takes as a query parameter, whichever
 * collection it reads: each collection's filters (see `resourceFilters`),
 * once by name (where two collections filter by the same name, the first
 * collection's schema types it; the handler keeps each filter to its own
 * collection).
 */
export function storeFilters(api: CompiledDocument): StoreFilter[] {
  const filters: StoreFilter[] = [];
  for (const resource of describeApi(api).resources) {
    for (const filter of resourceFilters(api, resource)) {
      if (!filters.some((each) => each.name === filter.name)) filters.push(filter);
    }
  }
  return filters;
}
