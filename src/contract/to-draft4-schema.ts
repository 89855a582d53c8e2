import type { OpenAPIV3 } from 'openapi-types';
import { resolveRef } from '../core/openapi/resolve-ref.js';

const draft4 = 'http://json-schema.org/draft-04/schema#';
/** Formats draft-04 validators know; any other (`int64`, ...) is dropped rather than rejected as unknown. */
const draft4Formats = new Set(['date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri']);
/** OpenAPI keywords that are not JSON Schema draft-04. */
const openApiOnly = new Set([
  'example',
  'nullable',
  'deprecated',
  'readOnly',
  'writeOnly',
  'discriminator',
  'xml',
  'externalDocs',
]);

function convert(document: OpenAPIV3.Document, value: unknown, pointer: string, depth: number): unknown {
  if (depth > 64) throw new Error(`${pointer}: schema nests too deep (a recursive schema cannot be inlined)`);
  if (Array.isArray(value)) return value.map((item, i) => convert(document, item, `${pointer}/${i}`, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  if ('$ref' in value) {
    const target = resolveRef<unknown>(document, value as OpenAPIV3.ReferenceObject, pointer);
    return convert(document, target.value, target.pointer, depth + 1);
  }
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    if (openApiOnly.has(key) || key.startsWith('x-')) continue;
    if (key === 'format' && !draft4Formats.has(String(child))) continue;
    if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
      result[key] = Object.fromEntries(
        Object.entries(child as Record<string, unknown>).map(([name, schema]) => [
          name,
          convert(document, schema, `${pointer}/${key}/${name}`, depth + 1),
        ]),
      );
      continue;
    }
    result[key] = convert(document, child, `${pointer}/${key}`, depth + 1);
  }
  if (source.nullable === true && typeof result.type === 'string') result.type = [result.type, 'null'];
  return result;
}

/**
 * A self-contained JSON Schema draft-04 for an OpenAPI 3.0 schema: every `$ref`
 * inlined, OpenAPI-only keywords dropped, `nullable` turned into a `null` type.
 * Dredd (Gavel) validates response bodies against it.
 */
export function toDraft4Schema(
  document: OpenAPIV3.Document,
  schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject,
  pointer = '',
): Record<string, unknown> {
  return { $schema: draft4, ...(convert(document, schema, pointer, 0) as Record<string, unknown>) };
}
