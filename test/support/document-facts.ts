import type { OpenAPIV3 } from 'openapi-types';
import {
  describeApi,
  type ApiModel,
  type OperationSemantics,
  type PageParameter,
  type Resource,
} from '../../src/core/model/describe-api.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';

/**
 * What the behaviour tests know of a document, all read from it through the
 * kit's model (`describeApi` over the compiled document): its resources, the
 * kind of each operation, the id field and path parameter, the list's page
 * parameter and filters, the writable fields. A test names a path, a
 * parameter or a field only through these, so that it runs unchanged over
 * any document the model reads (a renamed one, one with more resources).
 */
export interface DocumentFacts {
  document: OpenAPIV3.Document;
  api: ApiModel;
  resources: ResourceFacts[];
  /** Every operationId of the document, in document order. */
  operationIds: string[];
  /** The deprecated operations the model serves, with what the document says of their removal. */
  deprecated: DeprecatedOperation[];
  /** The resource of that name; throws when the document has none. */
  resource(name: string): ResourceFacts;
  /** The JSON example the document gives an operation's response of that status (its `$ref` followed), if any. */
  example(operation: OperationFacts, status: number): unknown;
}

/** One operation of a resource, by kind. */
export interface OperationFacts {
  operationId: string;
  method: string;
  /** The path template (`/pets/{petId}`). */
  path: string;
  /** The statuses the document lists for it, as numbers. */
  statuses: number[];
}

/** A property of the items, with the schema facts a test needs. */
export interface FieldFacts {
  name: string;
  type: string | undefined;
  format: string | undefined;
  values: string[] | undefined;
}

export interface ResourceFacts {
  resource: Resource;
  /** The collection's name (`pets`): how fixtures, the admin API and messages name its items. */
  name: string;
  /** One item (`pet`), as messages and the not-found code name it. */
  itemName: string;
  /** `/pets` */
  collectionPath: string;
  /** `/pets/{petId}`, when the document has an item path. */
  itemPathTemplate: string | undefined;
  /** The item path parameter (`petId`). */
  idParameter: string | undefined;
  /** The item property that identifies it (`id`). */
  idField: string;
  /** The path of one item (`/pets/7`); the id is written as it is given (a raw text is sent as is). */
  itemPath(id: number | bigint | string): string;
  list: OperationFacts | undefined;
  create: OperationFacts | undefined;
  read: OperationFacts | undefined;
  replace: OperationFacts | undefined;
  update: OperationFacts | undefined;
  delete: OperationFacts | undefined;
  /** The list's page-size parameter. */
  page: PageParameter | undefined;
  /** The list's filters whose values the document enumerates, with those values. */
  filters: Array<{ name: string; values: string[] }>;
  /** The list's query parameters (page and filters), for a test that needs a name the list does not take. */
  listParameters: string[];
  /** The fields a create sets, in the schema's order. */
  writable: FieldFacts[];
  /** The writable fields an item requires. */
  required: FieldFacts[];
  /** The first required writable text (a name). */
  text: FieldFacts | undefined;
  /** The first required writable integer that refers to no item (`categoryId` in the kit's document). */
  integer: FieldFacts | undefined;
  /**
   * The writable fields that refer to an item of a collection (an animal's
   * `categoryId` where the document has `/categories`): a new item names one
   * that every scenario of the kit's holds, the first (`referredId`).
   */
  references: Array<FieldFacts & { collection: string }>;
  /** The first writable enumeration (a state, `status`), with its values. */
  state: (FieldFacts & { values: string[] }) | undefined;
  /** The methods the collection path and the item path take, as a 405's Allow lists them. */
  collectionMethods: string[];
  itemMethods: string[];
  /** The Error body of a 404 for an id no item has (`pet_not_found`, `no pet has id 42`). */
  notFound(id: number | bigint | string): { code: string; message: string; status: 404 };
  /** A valid create body: each required writable field with a value of its type, then `extra`. */
  newItem(extra?: Record<string, unknown>): Record<string, unknown>;
}

export interface DeprecatedOperation extends OperationFacts {
  /** `x-deprecated-at`, the day it was first marked deprecated (YYYY-MM-DD). */
  deprecatedAt: string | undefined;
  /** `x-sunset`, its removal day (YYYY-MM-DD). */
  sunset: string | undefined;
  /** The operation `x-replaced-by` names. */
  replacedBy: OperationFacts | undefined;
  /** The resource it acts on, and its kind. */
  resource: ResourceFacts | undefined;
  kind: OperationSemantics['kind'];
}

/** `a pet`, `an animal`, `an id`: a noun with its indefinite article, for test titles. */
export function withArticle(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/** The `<item>_not_found` code: the item schema's name in snake case (`Pet`: `pet_not_found`). */
export function notFoundCode(itemName: string): string {
  return `${itemName.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}_not_found`;
}

const methodOrder = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];

function methodsAt(document: OpenAPIV3.Document, path: string | undefined): string[] {
  const item = path === undefined ? undefined : document.paths[path];
  if (!item) return [];
  return methodOrder.filter((method) => (item as Record<string, unknown>)[method.toLowerCase()] !== undefined);
}

function operationFacts(semantics: OperationSemantics | undefined): OperationFacts | undefined {
  if (!semantics) return undefined;
  const { operation } = semantics;
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.pathTemplate,
    statuses: Object.keys(operation.definition.responses ?? {})
      .map(Number)
      .filter((status) => Number.isInteger(status)),
  };
}

function fieldFacts(resource: Resource, name: string): FieldFacts {
  const schema = resource.properties.get(name);
  return {
    name,
    type: typeof schema?.type === 'string' ? schema.type : undefined,
    format: schema?.format,
    values: Array.isArray(schema?.enum) ? (schema.enum as string[]) : undefined,
  };
}

/**
 * The id a new item's reference names: 1, the first id of every generated
 * collection, and one the kit's literal scenarios refer to (the items they
 * refer to are generated with them); a test of a scenario with no such item
 * (`empty`) makes one first.
 */
export const referredId = 1;

/** A value of the field's type for a new item: the first of an enumeration, `Rex` for a text, 1 for a number. */
function sampleValue(field: FieldFacts): unknown {
  if (field.values) return field.values[0];
  if (field.type === 'integer' || field.type === 'number') return 1;
  if (field.type === 'boolean') return true;
  return 'Rex';
}

function resourceFacts(api: ApiModel, resource: Resource): ResourceFacts {
  const { document } = api.compiled;
  const semantics = (kind: keyof Resource['operations']) => {
    const operation = resource.operations[kind];
    return operation ? api.of(operation) : undefined;
  };
  const list = semantics('list');
  const idParameter = (['read', 'replace', 'update', 'delete'] as const)
    .map((kind) => semantics(kind)?.idParameter)
    .find((name) => name !== undefined);
  const writable = resource.writable.map((name) => fieldFacts(resource, name));
  const required = writable.filter((field) => resource.required.includes(field.name));
  const states = writable.filter((field) => field.values !== undefined);
  const references = resource.references.flatMap((reference) => {
    const field = writable.find((each) => each.name === reference.field);
    return field ? [{ ...field, collection: reference.collection }] : [];
  });
  const filters = (list?.filters ?? [])
    .map((name) => ({ name, values: fieldFacts(resource, name).values }))
    .filter((filter): filter is { name: string; values: string[] } => filter.values !== undefined);
  const itemPathTemplate = resource.itemPath;
  return {
    resource,
    name: resource.name,
    itemName: resource.itemName,
    collectionPath: resource.collectionPath,
    itemPathTemplate,
    idParameter,
    idField: resource.idField,
    itemPath(id) {
      if (itemPathTemplate === undefined || idParameter === undefined) {
        throw new Error(`${resource.collectionPath} has no item path in this document`);
      }
      return itemPathTemplate.replace(`{${idParameter}}`, String(id));
    },
    list: operationFacts(list),
    create: operationFacts(semantics('create')),
    read: operationFacts(semantics('read')),
    replace: operationFacts(semantics('replace')),
    update: operationFacts(semantics('update')),
    delete: operationFacts(semantics('delete')),
    page: list?.page,
    filters,
    listParameters: [...(list?.page ? [list.page.name] : []), ...(list?.filters ?? [])],
    writable,
    required,
    text: required.find((field) => field.type === 'string' && field.values === undefined),
    integer: required.find(
      (field) => field.type === 'integer' && !resource.references.some((reference) => reference.field === field.name),
    ),
    references,
    state: states[0] as (FieldFacts & { values: string[] }) | undefined,
    collectionMethods: methodsAt(document, resource.collectionPath),
    itemMethods: methodsAt(document, itemPathTemplate),
    notFound: (id) => ({
      code: notFoundCode(resource.itemName),
      message: `no ${resource.itemName} has ${resource.idField} ${String(id)}`,
      status: 404,
    }),
    newItem: (extra = {}) => ({
      ...Object.fromEntries(required.map((field) => [field.name, sampleValue(field)])),
      ...Object.fromEntries(references.map((field) => [field.name, referredId])),
      ...extra,
    }),
  };
}

/** The value a local `$ref` (`#/components/...`) points at, followed until it is no reference. */
function dereference(document: OpenAPIV3.Document, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (current as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
  }
  throw new Error(`a $ref chain longer than 32 in the document`);
}

/** What the model reads from a document (its `source` names it in messages). */
export function documentFacts(document: OpenAPIV3.Document, source: string): DocumentFacts {
  const api = describeApi(compileDocument(document, source));
  const resources = api.resources.map((resource) => resourceFacts(api, resource));
  const byName = new Map(resources.map((facts) => [facts.name, facts]));
  const deprecated = api.operations
    .filter((semantics) => semantics.operation.definition.deprecated === true)
    .map((semantics): DeprecatedOperation => {
      const definition = semantics.operation.definition as OpenAPIV3.OperationObject & Record<string, unknown>;
      const replacedById = (definition['x-replaced-by'] as { operationId?: string } | undefined)?.operationId;
      const replacement = api.operations.find((each) => each.operation.operationId === replacedById);
      return {
        ...(operationFacts(semantics) as OperationFacts),
        deprecatedAt: definition['x-deprecated-at'] as string | undefined,
        sunset: definition['x-sunset'] as string | undefined,
        replacedBy: operationFacts(replacement),
        resource: semantics.resource ? byName.get(semantics.resource.name) : undefined,
        kind: semantics.kind,
      };
    });
  return {
    document,
    api,
    resources,
    operationIds: api.operations.map((semantics) => semantics.operation.operationId),
    deprecated,
    resource(name) {
      const found = byName.get(name);
      if (!found) throw new Error(`${source} has no resource '${name}'`);
      return found;
    },
    example(operation, status) {
      const item = document.paths[operation.path] as Record<string, OpenAPIV3.OperationObject> | undefined;
      const response = dereference(document, item?.[operation.method.toLowerCase()]?.responses?.[String(status)]) as
        OpenAPIV3.ResponseObject | undefined;
      return response?.content?.['application/json']?.example;
    },
  };
}
