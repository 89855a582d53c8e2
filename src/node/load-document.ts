import { readFileSync } from 'node:fs';
import type { OpenAPIV3 } from 'openapi-types';
import { DocumentError } from '../core/openapi/document-error.js';
import { parseDocument } from '../core/openapi/parse-document.js';

/** Reads and parses an OpenAPI 3.0 document file (YAML or JSON). Throws `DocumentError` naming the problem. */
export function loadDocument(file: string): OpenAPIV3.Document {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DocumentError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseDocument(text, file);
}
