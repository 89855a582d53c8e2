import type { OpenAPIV3 } from 'openapi-types';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { resolveRef } from '../openapi/resolve-ref.js';

/**
 * What the document says about an operation that the exchange rules judge
 * by, read from openapi.yaml (nothing here names a path, a field or an enum
 * of its own): a list operation's page-size parameter and filters, a read
 * operation's id parameter, a create operation's echoed body.
 */
export interface OperationFacts {
  /** `list`: a 200 array of objects; `read`: a GET by a path parameter; `create`: a POST whose 201 is the created object. */
  kind: 'list' | 'read' | 'create' | 'other';
  /** The query parameter that caps the page ("Maximum number of animals returned"), with its default and bounds. */
  limit?: { name: string; default: number | undefined; minimum: number | undefined; maximum: number | undefined };
  /** Query parameters named like a property of the listed items: each keeps only items with that value. */
  filters: string[];
  /** The path parameter that names the item read, compared with the item's `id`. */
  idParameter?: string;
  /** A create's body fields the document names, which the created item must echo (a field it does not name need not come back). */
  echoed: string[];
}

type Schema = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;

function resolve(document: OpenAPIV3.Document, schema: Schema | undefined): OpenAPIV3.SchemaObject | undefined {
  return schema === undefined ? undefined : resolveRef<OpenAPIV3.SchemaObject>(document, schema, '').value;
}

/** The property names of an object schema, through `$ref` and `allOf`. */
export function propertiesOf(document: OpenAPIV3.Document, schema: Schema | undefined): string[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  return [
    ...Object.keys(resolved.properties ?? {}),
    ...(resolved.allOf ?? []).flatMap((member) => propertiesOf(document, member)),
  ];
}

function jsonSchemaOf(definition: OpenAPIV3.OperationObject, document: OpenAPIV3.Document, status: string) {
  const raw = definition.responses?.[status];
  if (!raw) return undefined;
  const response = resolveRef<OpenAPIV3.ResponseObject>(document, raw, '').value;
  return response.content?.['application/json']?.schema;
}

function parameterSchema(document: OpenAPIV3.Document, operation: CompiledOperation, name: string) {
  for (const raw of operation.definition.parameters ?? []) {
    const parameter = resolveRef<OpenAPIV3.ParameterObject>(document, raw, '').value;
    if (parameter.name === name) return resolve(document, parameter.schema);
  }
  return undefined;
}

function factsOf(compiled: CompiledDocument, operation: CompiledOperation): OperationFacts {
  const { document } = compiled;
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const path = operation.parameters.filter((parameter) => parameter.in === 'path');
  const ok = resolve(document, jsonSchemaOf(operation.definition, document, '200'));
  if (operation.method === 'GET' && ok?.type === 'array') {
    const itemFields = propertiesOf(document, ok.items);
    const limitName = query.find((parameter) => parameter.name === 'limit')?.name;
    const limitSchema = limitName === undefined ? undefined : parameterSchema(document, operation, limitName);
    return {
      kind: 'list',
      echoed: [],
      filters: query.map((parameter) => parameter.name).filter((name) => itemFields.includes(name)),
      ...(limitName !== undefined && limitSchema
        ? {
            limit: {
              name: limitName,
              default: limitSchema.default as number | undefined,
              minimum: limitSchema.minimum,
              maximum: limitSchema.maximum,
            },
          }
        : {}),
    };
  }
  if (operation.method === 'GET' && path.length === 1 && propertiesOf(document, ok).includes('id')) {
    return { kind: 'read', filters: [], echoed: [], idParameter: path[0]?.name };
  }
  const created = jsonSchemaOf(operation.definition, document, '201');
  if (operation.method === 'POST' && operation.requestBody && created !== undefined) {
    const raw = operation.definition.requestBody;
    const body = raw && resolveRef<OpenAPIV3.RequestBodyObject>(document, raw, '').value;
    const createdFields = propertiesOf(document, created);
    const sent = propertiesOf(document, body?.content['application/json']?.schema);
    return { kind: 'create', filters: [], echoed: sent.filter((field) => createdFields.includes(field)) };
  }
  return { kind: 'other', filters: [], echoed: [] };
}

const cache = new WeakMap<CompiledOperation, OperationFacts>();

/** The facts of an operation (computed once per compiled operation). */
export function operationFacts(compiled: CompiledDocument, operation: CompiledOperation): OperationFacts {
  let facts = cache.get(operation);
  if (!facts) {
    facts = factsOf(compiled, operation);
    cache.set(operation, facts);
  }
  return facts;
}
