import type { OpenAPIV3 } from 'openapi-types';
import { describeApi } from '../model/describe-api.js';
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

const filtersOf = new WeakMap<CompiledDocument, StoreFilter[]>();

/** The fields of the store's first collection, its id first, as the document names them (the dashboard's columns). */
export function storeFields(api: CompiledDocument): string[] {
  const [first] = describeApi(api).resources;
  if (!first) return [];
  return [first.idField, ...first.fields.filter((field) => field !== first.idField)];
}

/**
 * The filters the admin API's `GET /__admin/store` takes, derived from the
 * API's document by its model: the filters of the list operations of its
 * first collection (the items the store's shortcuts list), once by name, in
 * the document's order. For openapi.yaml that is listPets' `status`; no
 * parameter is named here.
 */
export function storeFilters(api: CompiledDocument): StoreFilter[] {
  let filters = filtersOf.get(api);
  if (filters) return filters;
  filters = [];
  const model = describeApi(api);
  const [first] = model.resources;
  const seen = new Set<string>();
  for (const each of model.operations) {
    if (each.kind !== 'list' || each.resource !== first) continue;
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
  filtersOf.set(api, filters);
  return filters;
}
