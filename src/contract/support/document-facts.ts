import type { OpenAPIV3 } from 'openapi-types';
import type { CompiledDocument, CompiledOperation } from '../../core/openapi/compile-document.js';
import { describeApi } from '../../core/model/describe-api.js';
import { resolveRef } from '../../core/openapi/resolve-ref.js';

/** A schema with its `$ref`s followed, one level at a time. */
export function resolveSchema(compiled: CompiledDocument, schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject) {
  return resolveRef<OpenAPIV3.SchemaObject>(compiled.document, schema, '').value;
}

/** The resolved schema of a query or path parameter of an operation (its own, or its path's). */
export function parameterSchema(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  name: string,
): OpenAPIV3.SchemaObject {
  const lists = [
    operation.definition.parameters ?? [],
    compiled.document.paths[operation.pathTemplate]?.parameters ?? [],
  ];
  for (const raw of lists.flat()) {
    const parameter = resolveRef<OpenAPIV3.ParameterObject>(compiled.document, raw, '').value;
    if (parameter.name === name && parameter.schema) return resolveSchema(compiled, parameter.schema);
  }
  throw new Error(`${operation.operationId} has no parameter '${name}' in ${compiled.source}`);
}

/** The values the document allows a filter parameter (its enum), as text; empty when it names none. */
export function filterValues(compiled: CompiledDocument, operation: CompiledOperation, name: string): string[] {
  return (parameterSchema(compiled, operation, name).enum ?? []).map(String);
}

/** The JSON schema of an operation's request body, resolved. */
export function requestBodySchema(compiled: CompiledDocument, operation: CompiledOperation): OpenAPIV3.SchemaObject {
  const raw = operation.definition.requestBody;
  if (!raw) throw new Error(`${operation.operationId} has no request body`);
  const body = resolveRef<OpenAPIV3.RequestBodyObject>(compiled.document, raw, '').value;
  const schema = body.content['application/json']?.schema;
  if (!schema) throw new Error(`${operation.operationId} has no application/json request schema`);
  return resolveSchema(compiled, schema);
}

/**
 * The path a run first asks, to see that the base URL serves the API and
 * accepts the key: the document's first list (`/pets`), else its first GET
 * without a path parameter, else its first path.
 */
export function probePath(compiled: CompiledDocument): string {
  const api = describeApi(compiled);
  const plain = (operation: CompiledOperation) => operation.segments.every((segment) => typeof segment === 'string');
  const chosen =
    api.operations.find((each) => each.kind === 'list' && plain(each.operation))?.operation ??
    compiled.operations.find((operation) => operation.method === 'GET' && plain(operation)) ??
    compiled.operations[0];
  if (!chosen) return '/';
  return `/${chosen.segments.map((segment) => (typeof segment === 'string' ? segment : '1')).join('/')}`;
}

/** What a run's created items are, in the document's words: `pets` (the collections that have a create). */
export function createdWords(compiled: CompiledDocument): string {
  const names = describeApi(compiled)
    .resources.filter((resource) => resource.operations.create)
    .map((resource) => resource.name);
  return names.join(' and ') || 'items';
}
