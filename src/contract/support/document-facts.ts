import type { OpenAPIV3 } from 'openapi-types';
import type { CompiledDocument, CompiledOperation } from '../../core/openapi/compile-document.js';
import { resolveRef } from '../../core/openapi/resolve-ref.js';

/** A schema with its `$ref`s followed, one level at a time. */
export function resolveSchema(compiled: CompiledDocument, schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject) {
  return resolveRef<OpenAPIV3.SchemaObject>(compiled.document, schema, '').value;
}

/** The resolved schema of a query or path parameter of an operation. */
export function parameterSchema(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  name: string,
): OpenAPIV3.SchemaObject {
  for (const raw of operation.definition.parameters ?? []) {
    const parameter = resolveRef<OpenAPIV3.ParameterObject>(compiled.document, raw, '').value;
    if (parameter.name === name && parameter.schema) return resolveSchema(compiled, parameter.schema);
  }
  throw new Error(`${operation.operationId} has no parameter '${name}' in openapi.yaml`);
}

/** Minimum, maximum and default of the listPets `limit` parameter, as the document states them. */
export function limitFacts(compiled: CompiledDocument, operation: CompiledOperation) {
  const schema = parameterSchema(compiled, operation, 'limit');
  const { minimum, maximum } = schema;
  const fallback = schema.default as number | undefined;
  if (minimum === undefined || maximum === undefined || fallback === undefined) {
    throw new Error(`the 'limit' parameter of ${operation.operationId} must state minimum, maximum and default`);
  }
  return { minimum, maximum, default: fallback };
}

/** The allowed values of the listPets `status` filter. */
export function statusValues(compiled: CompiledDocument, operation: CompiledOperation): string[] {
  const values = parameterSchema(compiled, operation, 'status').enum;
  if (!values || values.length === 0) throw new Error(`the 'status' parameter of ${operation.operationId} has no enum`);
  return values.map(String);
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
