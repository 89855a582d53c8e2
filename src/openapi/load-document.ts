import { readFileSync } from 'node:fs';
import type { OpenAPIV3 } from 'openapi-types';
import { parse as parseYaml, YAMLParseError } from 'yaml';

/** A document that cannot be served. Its message names the file and the problem. */
export class DocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentError';
  }
}

/** Reads and parses an OpenAPI 3.0 document (YAML or JSON). Throws `DocumentError` naming the problem. */
export function loadDocument(file: string): OpenAPIV3.Document {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DocumentError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseDocument(text, file);
}

/** Parses document text; `source` names it in error messages. */
export function parseDocument(text: string, source: string): OpenAPIV3.Document {
  let value: unknown;
  try {
    value = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}` : '';
    throw new DocumentError(`${source}: not valid YAML or JSON${where}: ${(error as Error).message.split('\n')[0]}`);
  }
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
