import type { OpenAPIV3 } from 'openapi-types';
import { isJsonMediaType } from '../http/media-type.js';
import type { CompiledDocument, CompiledOperation, CompiledParameter } from '../openapi/compile-document.js';
import { DocumentError } from '../openapi/document-error.js';
import { readPointer, resolveRef } from '../openapi/resolve-ref.js';
import { isOperationKind, type OperationKind, operationKinds, type ServableKind } from './operation-kind.js';
import { arrayItems, objectShape, type ObjectShape, resolveSchema } from './schema-shape.js';

type Schema = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;

/**
 * A resource of the document: a collection path (`/pets`), its item path
 * (`/pets/{petId}`), the schema its items share, and the operations that act
 * on it, each by kind. Everything here is read from openapi.yaml.
 */
export interface Resource {
  /** The collection path's last segment (`pets`): how fixtures and state files name its items. */
  name: string;
  /** One item, for messages and error codes: the item schema's name (`Pet`: `pet`), or `item of <name>`. */
  itemName: string;
  /** `/pets`. */
  collectionPath: string;
  /** `/pets/{petId}`, when an operation uses it. */
  itemPath: string | undefined;
  /** The item schema's pointer (`/components/schemas/Pet`), or its JSON when written inline. */
  itemSchema: string;
  /** The property that identifies an item, assigned by the service on creation (`id`). */
  idField: string;
  /** The id's JSON type: integers are held exactly (int64), strings as they are. */
  idType: 'integer' | 'string';
  /** Every property the item schema names. */
  fields: string[];
  /** Each property's schema, resolved (its `$ref` followed). */
  properties: ReadonlyMap<string, OpenAPIV3.SchemaObject>;
  /** The properties the item schema requires. */
  required: string[];
  /** The properties a create or replace body sets (the request schema's, which the item has too). */
  writable: string[];
  /**
   * The properties whose schema is an enumeration: states, whose transitions
   * the document does not show, so the service may change them on its own
   * (a change is observed, never failed). Every other property is data: only
   * the API's own writes change it.
   */
  states: string[];
  /** The operations acting on the resource, by kind (the first of each kind, in document order). */
  operations: Partial<Record<ServableKind, CompiledOperation>>;
  /**
   * The fields whose value is the id of an item of a collection of the
   * document (see `Reference`): an animal's `categoryId`, where the document
   * has `/categories`.
   */
  references: Reference[];
}

/**
 * A field of an item that refers to an item of a collection of the document:
 * by json-server's convention, a field `xId` (or `x_id`) where the document
 * has a collection `xs` (named after the plural of `x`, or whose item schema
 * is named `x`), of the same id type; or the collection the property's
 * `x-petstore-references` names (`false` there says the field refers to
 * nothing, whatever its name).
 */
export interface Reference {
  /** The field of the item that holds the other item's id (`categoryId`). */
  field: string;
  /** The collection it refers to an item of (`categories`). */
  collection: string;
  /** One item of that collection, for messages (`category`). */
  itemName: string;
  /** Whether `x-petstore-references` names it, rather than the field's name. */
  declared: boolean;
}

/** A list operation's page-size parameter, with what the document says of it. */
export interface PageParameter {
  name: string;
  default: number | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
}

/** What the model knows of one operation. */
export interface OperationSemantics {
  operation: CompiledOperation;
  kind: OperationKind;
  /** Whether the kind was written in the document (`x-petstore-kind`) rather than inferred. */
  declared: boolean;
  /** The resource it acts on (undefined for `other`). */
  resource: Resource | undefined;
  /** The path parameter naming the item (read, replace, update, delete). */
  idParameter: string | undefined;
  /** A list's page-size parameter, when it has one. */
  page: PageParameter | undefined;
  /** A list's query parameters named like an item property: each keeps only items with that value. */
  filters: string[];
  /** For `other`: why the model could not place it. */
  unplaced: string | undefined;
}

/** The document as the model reads it: its resources, and every operation's kind. */
export interface ApiModel {
  /** The document the model was read from. */
  compiled: CompiledDocument;
  resources: Resource[];
  operations: OperationSemantics[];
  /** The semantics of an operation of this document. */
  of(operation: CompiledOperation): OperationSemantics;
  /** The operations the model could not place (kind `other`), to name at start-up. */
  unplaced(): OperationSemantics[];
  /** The resource of that name, if any. */
  resource(name: string): Resource | undefined;
}

/** The extension that settles an operation's kind where the shape does not (`x-petstore-kind: replace`). */
export const kindExtension = 'x-petstore-kind';
/** The extension that names an item schema's id property where inference cannot. */
export const idExtension = 'x-petstore-id';
/** The extension that names a list's page-size parameter (set on the parameter: `x-petstore-page-size: true`). */
export const pageSizeExtension = 'x-petstore-page-size';

/** The extension that says which collection a property refers to an item of (`x-petstore-references: categories`). */
export const referencesExtension = 'x-petstore-references';

/** A JSON schema of a request body or a response, when the document gives one. */
function jsonSchema(document: OpenAPIV3.Document, content: Record<string, OpenAPIV3.MediaTypeObject> | undefined) {
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    if (isJsonMediaType(mediaType.toLowerCase()) && media.schema) return media.schema;
  }
  return undefined;
}

function requestSchema(document: OpenAPIV3.Document, operation: CompiledOperation): Schema | undefined {
  const raw = operation.definition.requestBody;
  if (!raw) return undefined;
  return jsonSchema(document, resolveRef<OpenAPIV3.RequestBodyObject>(document, raw, '').value.content);
}

function responseSchema(document: OpenAPIV3.Document, operation: CompiledOperation, status: string) {
  const raw = operation.definition.responses?.[status];
  if (!raw) return undefined;
  return jsonSchema(document, resolveRef<OpenAPIV3.ResponseObject>(document, raw, '').value.content);
}

/** The first documented 2xx status among those given. */
function successStatus(operation: CompiledOperation, statuses: readonly string[]): string | undefined {
  return statuses.find((status) => operation.responses.has(status));
}

/** Where an operation's path stands: a collection (`/pets`) or an item of one (`/pets/{petId}`). */
function pathRole(operation: CompiledOperation): { collection: string; itemParameter: string | undefined } {
  const last = operation.segments.at(-1);
  if (last !== undefined && typeof last !== 'string') {
    const collection = operation.pathTemplate.slice(0, operation.pathTemplate.lastIndexOf('/')) || '/';
    return { collection, itemParameter: last.param };
  }
  return { collection: operation.pathTemplate, itemParameter: undefined };
}

/** What one operation's shape says, before resources are put together. */
interface Candidate {
  operation: CompiledOperation;
  kind: OperationKind;
  declared: boolean;
  collection: string;
  itemParameter: string | undefined;
  /** The item schema its request or response shows. */
  item: ObjectShape | undefined;
  /** The shape of its request body, when it has one. */
  body: ObjectShape | undefined;
  unplaced: string | undefined;
}

function declaredKind(operation: CompiledOperation, source: string): OperationKind | undefined {
  const value = (operation.definition as Record<string, unknown>)[kindExtension];
  if (value === undefined) return undefined;
  if (!isOperationKind(value)) {
    throw new DocumentError(
      `${source}: ${operation.method} ${operation.pathTemplate}: ${kindExtension} must be one of ${operationKinds.join(', ')}, found ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** The kind an operation's method, path and schemas give it, with the item schema they show. */
function inferCandidate(compiled: CompiledDocument, operation: CompiledOperation): Candidate {
  const { document } = compiled;
  const { collection, itemParameter } = pathRole(operation);
  const declared = declaredKind(operation, compiled.source);
  const body = objectShape(document, requestSchema(document, operation));
  const base = { operation, collection, itemParameter, body, declared: declared !== undefined };
  const objectAt = (statuses: readonly string[]) => {
    const status = successStatus(operation, statuses);
    return status === undefined ? undefined : objectShape(document, responseSchema(document, operation, status));
  };
  const place = (kind: OperationKind, item: ObjectShape | undefined, why?: string): Candidate => ({
    ...base,
    kind: why === undefined ? kind : 'other',
    item,
    unplaced: why,
  });
  const method = operation.method;
  const kind =
    declared ??
    (method === 'GET' && itemParameter === undefined
      ? 'list'
      : method === 'GET'
        ? 'read'
        : method === 'POST' && itemParameter === undefined
          ? 'create'
          : method === 'PUT' && itemParameter !== undefined
            ? 'replace'
            : method === 'PATCH' && itemParameter !== undefined
              ? 'update'
              : method === 'DELETE' && itemParameter !== undefined
                ? 'delete'
                : 'other');
  switch (kind) {
    case 'list': {
      const status = successStatus(operation, ['200']);
      const items =
        status === undefined ? undefined : arrayItems(document, responseSchema(document, operation, status));
      const item = objectShape(document, items);
      return place('list', item, item ? undefined : 'its 200 answer is not a JSON array of objects');
    }
    case 'read': {
      const item = objectAt(['200']);
      if (itemParameter === undefined) return place('read', item, 'its path does not end with an item parameter');
      return place('read', item, item ? undefined : 'its 200 answer is not a JSON object');
    }
    case 'create': {
      const item = objectAt(['201', '200']);
      if (!body) return place('create', item, 'it has no JSON object request body');
      return place('create', item, item ? undefined : 'its 201 (or 200) answer is not a JSON object');
    }
    case 'replace':
    case 'update': {
      if (itemParameter === undefined) return place(kind, undefined, 'its path does not end with an item parameter');
      if (!body) return place(kind, undefined, 'it has no JSON object request body');
      const item = objectAt(['200']);
      const empty = successStatus(operation, ['204']);
      return place(kind, item, item || empty ? undefined : 'it answers neither an item (200) nor 204');
    }
    case 'delete': {
      if (itemParameter === undefined)
        return place('delete', undefined, 'its path does not end with an item parameter');
      const ok = successStatus(operation, ['204', '200', '202']);
      return place('delete', undefined, ok ? undefined : 'it documents no 204, 200 or 202');
    }
    default:
      return place(
        'other',
        undefined,
        declared === 'other'
          ? `${kindExtension}: other`
          : `${method} on ${itemParameter === undefined ? 'a collection' : 'an item'} path is no kind the model knows`,
      );
  }
}

/**
 * The item property the id path parameter and creation identify: the one the
 * item has but no request body sets (required, an integer or a text), or
 * else the one the item path's parameter is named after (`petId` ends with
 * `Id`: `id`); `x-petstore-id` on the item schema names it outright.
 * Undefined when none can be told.
 */
function idFieldOf(compiled: CompiledDocument, item: ObjectShape, candidates: Candidate[]): string | undefined {
  const schema = item.identity.startsWith('/')
    ? (readPointer(compiled.document, item.identity) as Record<string, unknown> | undefined)
    : (JSON.parse(item.identity) as Record<string, unknown>);
  const declared = schema?.[idExtension];
  if (declared !== undefined) {
    if (typeof declared !== 'string' || !item.properties.has(declared)) {
      throw new DocumentError(
        `${compiled.source}: ${idExtension} on ${item.identity} must name one of its properties (${[...item.properties.keys()].join(', ')})`,
      );
    }
    return declared;
  }
  const bodies = candidates.filter((c) => c.body && (c.kind === 'create' || c.kind === 'replace'));
  const settable = new Set(bodies.flatMap((c) => [...(c.body?.properties.keys() ?? [])]));
  const identifying = (name: string) => {
    const type = item.properties.get(name)?.type;
    return (type === 'integer' || type === 'string') && !settable.has(name);
  };
  const assigned = [...item.properties.keys()].filter((name) => item.required.has(name) && identifying(name));
  if (bodies.length > 0 && assigned.length === 1) return assigned[0];
  const parameters = [...new Set(candidates.map((c) => c.itemParameter).filter((p) => p !== undefined))];
  for (const parameter of parameters) {
    const matching = [...item.properties.keys()].filter(
      (name) => identifying(name) && (parameter === name || parameter.toLowerCase().endsWith(name.toLowerCase())),
    );
    if (matching.length === 1) return matching[0];
  }
  return undefined;
}

function pageParameterOf(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  item: ObjectShape,
): PageParameter | undefined {
  const schemaOf = (parameter: CompiledParameter) => parameterSchema(compiled, operation, parameter.name);
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const flagged = query.filter(
    (parameter) => parameterDefinition(compiled, operation, parameter.name)?.[pageSizeExtension] === true,
  );
  const integers = query.filter(
    (parameter) =>
      !item.properties.has(parameter.name) &&
      parameter.shape.type === 'integer' &&
      schemaOf(parameter)?.maximum !== undefined,
  );
  const chosen = flagged[0] ?? (integers.length === 1 ? integers[0] : undefined);
  if (!chosen) return undefined;
  const schema = schemaOf(chosen);
  return {
    name: chosen.name,
    default: typeof schema?.default === 'number' ? schema.default : undefined,
    minimum: schema?.minimum,
    maximum: schema?.maximum,
  };
}

function parameterDefinition(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  name: string,
): Record<string, unknown> | undefined {
  const { document } = compiled;
  const path = document.paths[operation.pathTemplate];
  const lists = [operation.definition.parameters ?? [], path?.parameters ?? []];
  for (const list of lists) {
    for (const raw of list) {
      const parameter = resolveRef<OpenAPIV3.ParameterObject>(document, raw, '').value;
      if (parameter.name === name) return parameter as unknown as Record<string, unknown>;
    }
  }
  return undefined;
}

/** The resolved schema of a parameter of an operation, if it has one of that name. */
export function parameterSchema(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  name: string,
): OpenAPIV3.SchemaObject | undefined {
  const schema = parameterDefinition(compiled, operation, name)?.schema as Schema | undefined;
  return schema === undefined ? undefined : resolveSchema(compiled.document, schema).value;
}

/** `category`: the word a field `categoryId` (or `category_id`) names, or undefined for another field. */
function referredWord(field: string): string | undefined {
  const match = /^(.+?)(?:Id|_id)$/.exec(field);
  return match?.[1]?.toLowerCase();
}

/** Whether a collection is the one `word` names: its item schema's name, or a plural of the word. */
function namedBy(resource: Resource, word: string): boolean {
  const name = resource.name.toLowerCase();
  const plurals = [`${word}s`, `${word}es`, /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : undefined];
  return resource.itemName.toLowerCase() === word || plurals.includes(name);
}

/** Whether a property's type can hold an id of the resource. */
function holdsIdOf(schema: OpenAPIV3.SchemaObject, resource: Resource): boolean {
  return schema.type === resource.idType;
}

/** The fields of a resource's items that refer to items of a collection of the document (see `Reference`). */
function referencesOf(compiled: CompiledDocument, resource: Resource, resources: readonly Resource[]): Reference[] {
  const references: Reference[] = [];
  const where = `${resource.itemSchema.split('/').at(-1) ?? resource.name}`;
  for (const [field, schema] of resource.properties) {
    if (field === resource.idField) continue;
    const declared = (schema as Record<string, unknown>)[referencesExtension];
    if (declared === false) continue;
    if (declared !== undefined) {
      const target = resources.find((each) => each.name === declared);
      if (!target) {
        throw new DocumentError(
          `${compiled.source}: ${referencesExtension} on ${where}.${field} must name a collection of the document (${resources.map((each) => each.name).join(', ')}) or be false, found ${JSON.stringify(declared)}`,
        );
      }
      if (!holdsIdOf(schema, target)) {
        throw new DocumentError(
          `${compiled.source}: ${where}.${field} refers to ${target.name} (${referencesExtension}), whose ids are of type ${target.idType}, but it is of type ${String(schema.type)}`,
        );
      }
      references.push({ field, collection: target.name, itemName: target.itemName, declared: true });
      continue;
    }
    const word = referredWord(field);
    const target = word === undefined ? undefined : resources.find((each) => namedBy(each, word));
    if (target && holdsIdOf(schema, target)) {
      references.push({ field, collection: target.name, itemName: target.itemName, declared: false });
    }
  }
  return references;
}

/** The name a collection path gives its items: its last literal segment. */
function resourceName(collection: string): string {
  const segments = collection.split('/').filter((segment) => segment !== '' && !segment.startsWith('{'));
  return segments.at(-1) ?? 'items';
}

function buildModel(compiled: CompiledDocument): ApiModel {
  const candidates = compiled.operations.map((operation) => inferCandidate(compiled, operation));
  const byCollection = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    if (candidate.kind === 'other') continue;
    const group = byCollection.get(candidate.collection) ?? [];
    group.push(candidate);
    byCollection.set(candidate.collection, group);
  }
  const semantics = new Map<CompiledOperation, OperationSemantics>();
  const unplace = (candidate: Candidate, why: string) => {
    candidate.kind = 'other';
    candidate.unplaced = why;
  };
  const resources: Resource[] = [];
  for (const [collection, group] of byCollection) {
    // The item schema the operations agree on: every item they show must be the same schema.
    const shown = group.map((candidate) => candidate.item).filter((item) => item !== undefined);
    const item = shown[0];
    if (!item) {
      for (const candidate of group) unplace(candidate, `no operation on ${collection} shows the schema of its items`);
      continue;
    }
    for (const candidate of group) {
      if (candidate.item && candidate.item.identity !== item.identity) {
        unplace(
          candidate,
          `its item schema ${candidate.item.identity} is not ${item.identity}, the one the other operations on ${collection} show`,
        );
      }
    }
    const placed = group.filter((candidate) => candidate.kind !== 'other');
    const idField = idFieldOf(compiled, item, placed);
    if (idField === undefined) {
      for (const candidate of placed) {
        unplace(
          candidate,
          `the items of ${collection} (${item.identity}) have no property the model can tell is their id: name it with ${idExtension} on the item schema`,
        );
      }
      continue;
    }
    const idType = item.properties.get(idField)?.type === 'string' ? 'string' : 'integer';
    const writableSet = new Set<string>();
    for (const candidate of placed) {
      if (candidate.kind !== 'create' && candidate.kind !== 'replace') continue;
      for (const name of candidate.body?.properties.keys() ?? []) {
        if (item.properties.has(name) && name !== idField) writableSet.add(name);
      }
    }
    const operations: Resource['operations'] = {};
    for (const candidate of placed) {
      const kind = candidate.kind as ServableKind;
      operations[kind] ??= candidate.operation;
    }
    const itemPath = placed.find((candidate) => candidate.itemParameter !== undefined)?.operation.pathTemplate;
    const name = resourceName(collection);
    const schemaName = item.identity.startsWith('/') ? item.identity.split('/').at(-1) : undefined;
    const resource: Resource = {
      name,
      itemName: schemaName ? schemaName.charAt(0).toLowerCase() + schemaName.slice(1) : `item of ${name}`,
      collectionPath: collection,
      itemPath,
      itemSchema: item.identity,
      idField,
      idType,
      fields: [...item.properties.keys()],
      properties: item.properties,
      required: [...item.required],
      writable: [...writableSet],
      states: [...item.properties].filter(([, schema]) => Array.isArray(schema.enum)).map(([name]) => name),
      operations,
      references: [],
    };
    resources.push(resource);
    for (const candidate of placed) {
      const { operation } = candidate;
      const list = candidate.kind === 'list';
      semantics.set(operation, {
        operation,
        kind: candidate.kind,
        declared: candidate.declared,
        resource,
        idParameter: candidate.itemParameter,
        page: list ? pageParameterOf(compiled, operation, item) : undefined,
        filters: list
          ? operation.parameters
              .filter((parameter) => parameter.in === 'query' && item.properties.has(parameter.name))
              .map((parameter) => parameter.name)
          : [],
        unplaced: undefined,
      });
    }
  }
  const names = new Set<string>();
  for (const resource of resources) {
    if (names.has(resource.name)) {
      throw new DocumentError(
        `${compiled.source}: two collections end with '${resource.name}'; the model names resources by that segment`,
      );
    }
    names.add(resource.name);
  }
  for (const resource of resources) resource.references = referencesOf(compiled, resource, resources);
  const operations = compiled.operations.map(
    (operation): OperationSemantics =>
      semantics.get(operation) ?? {
        operation,
        kind: 'other',
        declared: false,
        resource: undefined,
        idParameter: undefined,
        page: undefined,
        filters: [],
        unplaced: candidates.find((candidate) => candidate.operation === operation)?.unplaced ?? 'not placed',
      },
  );
  const byOperation = new Map(operations.map((each) => [each.operation, each]));
  return {
    compiled,
    resources,
    operations,
    of(operation) {
      const found = byOperation.get(operation);
      if (!found) throw new Error(`${operation.operationId} is not an operation of ${compiled.source}`);
      return found;
    },
    unplaced: () => operations.filter((each) => each.kind === 'other'),
    resource: (name) => resources.find((resource) => resource.name === name),
  };
}

const models = new WeakMap<CompiledDocument, ApiModel>();

/**
 * The model of a compiled document (built once per document): every
 * operation's kind, inferred from its method, path shape and schemas (or
 * settled by `x-petstore-kind`), grouped into resources by collection path,
 * each with its item schema, id field, writable fields and states. A
 * document whose resources cannot be read (no id the model can tell, two
 * collections of one name) throws a `DocumentError` naming the problem.
 */
export function describeApi(compiled: CompiledDocument): ApiModel {
  let model = models.get(compiled);
  if (!model) {
    model = buildModel(compiled);
    models.set(compiled, model);
  }
  return model;
}
