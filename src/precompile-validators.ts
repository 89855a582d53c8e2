/**
 * Precompiles a document's validators into a plain ES module, for runtimes that forbid eval (a page under
 * `Content-Security-Policy: script-src 'self'`, a browser extension, an edge worker) and to spare any
 * mock the compile: `npx petstore-kit precompile openapi.yaml --out validators.js`, or
 * `precompileValidators(document)` from `petstore-kit/precompile` in a build script. `npm run generate`
 * does the same for the kit's own document.
 */
import type { ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { OpenAPIV3 } from 'openapi-types';
import { createAdminDocument } from './core/admin/admin-document.js';
import { storeFilters } from './core/admin/store-filters.js';
import { stringifyJson } from './core/json/exact-json.js';
import { describeApi } from './core/model/describe-api.js';
import {
  compileDocument,
  markDocumentChecked,
  type CompiledDocument,
  type CompileSchema,
} from './core/openapi/compile-document.js';
import { createDocumentAjv } from './core/openapi/create-document-ajv.js';
import { defaultExport } from './core/openapi/load-ajv.js';
import { hashText, precompiledVersion } from './core/openapi/precompiled-validators.js';
import { fixtureSchema } from './core/scenarios/fixture.js';
import { createItemListCheck } from './core/store/check-item-list.js';

const standaloneCode = defaultExport<typeof standaloneModule.default>(standaloneModule);

/** One document's validators as the body of a `build(load)` function, and its document's hash. */
interface PrecompiledCode {
  hash: string;
  code: string;
}

/**
 * Compiles every validator `compileDocument` asks for (and those `also` asks for, given the compiled
 * document) with one Ajv that keeps their code, then writes them as Ajv's standalone code: one function
 * per validator, each reference between schemas resolved, formats as ajv-formats' code, and the
 * run-time helpers asked of `load` (`require` in Ajv's output) rather than imported.
 */
function precompileDocument(
  document: OpenAPIV3.Document,
  source: string,
  also: (compiled: CompiledDocument) => void = () => undefined,
): PrecompiledCode & { compiled: CompiledDocument } {
  const ajv = createDocumentAjv(document, { source, checked: false, keepSource: true });
  const ids = new Map<string, string>();
  // Ajv takes a schema's id as a URI: the keys (pointers, JSON texts) are exported under names of their own.
  const compile: CompileSchema = (key, schema) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = `v${ids.size}`;
      ids.set(key, id);
      ajv.addSchema(schema, id);
    }
    return ajv.getSchema(id) as ValidateFunction;
  };
  const compiled = compileDocument(document, source, { compile, precompiled: false });
  also(compiled);
  const exported = standaloneCode(ajv, Object.fromEntries(ids));
  const body = exported.replace(/^"use strict";/, '').replaceAll('require("', 'load("');
  return { hash: hashText(stringifyJson(document)), code: `const exports = {};\n${body}\nreturn exports;`, compiled };
}

/** The validators of a document and of the admin API the kit derives from it (see create-mock-core.ts). */
function precompileBoth(
  document: OpenAPIV3.Document,
  source: string,
): { api: PrecompiledCode; admin: PrecompiledCode } {
  const api = precompileDocument(document, source, (compiled) => {
    // The kit's own schemas a mock of the document compiles: a fixture's format, and each collection's item list.
    const model = describeApi(compiled);
    compiled.compileSchema(fixtureSchema(model.resources.map((resource) => resource.name)));
    for (const resource of model.resources) createItemListCheck(compiled, resource);
  });
  const adminDocument = createAdminDocument(
    document.components?.schemas ?? {},
    describeApi(api.compiled).resources.map((resource) => resource.name),
    storeFilters(api.compiled),
  );
  markDocumentChecked(adminDocument);
  const admin = precompileDocument(adminDocument, 'admin API');
  return { api, admin };
}

export interface PrecompileOptions {
  /** Names the document in the module's header and in messages. Default `openapi.yaml`. */
  source?: string;
}

/**
 * The validators of `document` as the text of an object literal, a `PrecompiledValidators`: what
 * `precompileValidators` exports (`npm run generate` writes the kit's own two parts apart, see
 * `precompiledDocumentLiterals`).
 */
export function precompiledValidatorsLiteral(document: OpenAPIV3.Document, source: string): string {
  const { api, admin } = precompiledDocumentLiterals(document, source);
  return `{\n  kind: 'precompiled-validators',\n  version: ${precompiledVersion},\n  source: ${JSON.stringify(source)},\n  api: ${api},\n  admin: ${admin},\n}`;
}

/**
 * The validators of `document` and of its admin API, each as the text of a `PrecompiledDocument`
 * literal, and the admin document's hash: `npm run generate` writes the two apart, so that the admin
 * API's validators are imported with its first request.
 */
export function precompiledDocumentLiterals(
  document: OpenAPIV3.Document,
  source: string,
): { api: string; admin: string; adminHash: string } {
  const { api, admin } = precompileBoth(document, source);
  const literalOf = ({ hash, code }: PrecompiledCode) =>
    `{\n    hash: ${JSON.stringify(hash)},\n    build(load) {\n${code}\n    },\n  }`;
  return { api: literalOf(api), admin: literalOf(admin), adminHash: admin.hash };
}

/** A value as a JavaScript literal: JSON, but an integer beyond 2^53 keeps every digit (`9007199254740993n`). */
function literal(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return `[${value.map(literal).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${literal(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The validators of `document` as an ES module: its default export is what the `validators` option of
 * `createMock` and `createMockHandlers` takes, and `document` is the document as the kit read it, the one
 * they were made from (a page needs no YAML parser). The module imports nothing and evaluates no string:
 * the kit hands it Ajv's run-time helpers when a mock first uses it. A mock refuses the validators for
 * another document (they hold its hash), so precompile again whenever the document changes.
 */
export function precompileValidators(document: OpenAPIV3.Document, options: PrecompileOptions = {}): string {
  const source = options.source ?? 'openapi.yaml';
  return `// Written by \`petstore-kit precompile\` from ${source}: its validators, compiled by Ajv ahead of time.
// Do not edit; precompile again after changing the document (a mock refuses validators of another document).
/* eslint-disable */
export const document = ${literal(document)};

export default ${precompiledValidatorsLiteral(document, source)};
`;
}
