import type { OpenAPIV3 } from 'openapi-types';
import { compileDocument, type CompiledDocument } from './compile-document.js';

/** What one document object compiled to, with the exact JSON text it had then. */
interface Compiled {
  json: string;
  compiled: CompiledDocument;
}

const compiledDocuments = new WeakMap<object, Map<string, Compiled>>();

/**
 * `compileDocument`, once per document: a second mock of the same document
 * object reuses its compiled validators, which hold nothing a mock changes
 * (stores, sessions and journals are each mock's own). `json` is the
 * document's exact JSON text now (the mock serves it as `/openapi.json`
 * anyway): a document changed since it was compiled is compiled again, so a
 * cached result never describes another document. Kept as long as the
 * document object lives (a WeakMap), per `source` (it names the document in
 * messages).
 */
export function compileDocumentOnce(document: OpenAPIV3.Document, source: string, json: string): CompiledDocument {
  let bySource = compiledDocuments.get(document);
  if (!bySource) {
    bySource = new Map();
    compiledDocuments.set(document, bySource);
  }
  const found = bySource.get(source);
  if (found && found.json === json) return found.compiled;
  const compiled = compileDocument(document, source, { json });
  bySource.set(source, { json, compiled });
  return compiled;
}
