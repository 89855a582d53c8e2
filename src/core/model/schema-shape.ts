import type { OpenAPIV3 } from 'openapi-types';
import { resolveRef } from '../openapi/resolve-ref.js';

type Schema = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;

/** An object schema as the model reads it: its properties (resolved) and which are required, through `$ref` and `allOf`. */
export interface ObjectShape {
  /** Where the schema lives, after its `$ref`s (`/components/schemas/Pet`), or its JSON for an inline one. */
  identity: string;
  properties: Map<string, OpenAPIV3.SchemaObject>;
  required: Set<string>;
}

/** A schema with its `$ref`s followed, and where it lives. */
export function resolveSchema(
  document: OpenAPIV3.Document,
  schema: Schema,
): { value: OpenAPIV3.SchemaObject; pointer: string } {
  return resolveRef<OpenAPIV3.SchemaObject>(document, schema, '');
}

/**
 * The shape of an object schema (`Pet` is `allOf: [NewPet, {id}]`), or
 * undefined for a schema that is not an object.
 */
export function objectShape(document: OpenAPIV3.Document, schema: Schema | undefined): ObjectShape | undefined {
  if (schema === undefined) return undefined;
  const resolved = resolveSchema(document, schema);
  const properties = new Map<string, OpenAPIV3.SchemaObject>();
  const required = new Set<string>();
  const visit = (raw: Schema): boolean => {
    const { value } = resolveSchema(document, raw);
    let objectLike = value.type === 'object' || value.properties !== undefined;
    for (const [name, property] of Object.entries(value.properties ?? {})) {
      properties.set(name, resolveSchema(document, property).value);
    }
    for (const name of value.required ?? []) required.add(name);
    for (const member of value.allOf ?? []) objectLike = visit(member) || objectLike;
    return objectLike;
  };
  if (!visit(schema)) return undefined;
  return {
    identity: resolved.pointer === '' ? JSON.stringify(resolved.value) : resolved.pointer,
    properties,
    required,
  };
}

/** The schema of an array's items, or undefined for a schema that is not an array. */
export function arrayItems(document: OpenAPIV3.Document, schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  const { value } = resolveSchema(document, schema);
  return value.type === 'array' ? (value as OpenAPIV3.ArraySchemaObject).items : undefined;
}
