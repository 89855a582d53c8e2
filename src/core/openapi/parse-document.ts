import type { OpenAPIV3 } from 'openapi-types';
import { parseExactYaml } from '../json/parse-exact-yaml.js';
import { DocumentError } from './document-error.js';

/**
 * Parses the text of an OpenAPI 3.0 document (YAML or JSON); `source` names it
 * in error messages. Throws `DocumentError` naming the problem.
 */
export function parseDocument(text: string, source: string): OpenAPIV3.Document {
  let value: unknown;
  try {
    value = parseExactYaml(text);
  } catch (error) {
    throw new DocumentError(`${source}: not valid YAML or JSON: ${(error as Error).message}`);
  }
  return checkDocument(value, source);
}

/** Checks that a value is an OpenAPI 3.0 document the kit can serve, before it is compiled. */
export function checkDocument(value: unknown, source: string): OpenAPIV3.Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DocumentError(`${source}: the document must be an object`);
  }
  const document = value as Record<string, unknown>;
  if (typeof document.openapi !== 'string' || !/^3\.0\.\d+$/.test(document.openapi)) {
    throw new DocumentError(
      `${source}: 'openapi' must be a 3.0.x version, found ${JSON.stringify(document.openapi ?? null)}`,
    );
  }
  if (typeof document.paths !== 'object' || document.paths === null) {
    throw new DocumentError(`${source}: 'paths' must be an object`);
  }
  return document as unknown as OpenAPIV3.Document;
}
