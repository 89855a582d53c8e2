import type { Ajv, CodeKeywordDefinition } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import {
  checkExactNumber,
  exactNumberKeyword,
  exactNumberModule,
  withExactNumbers,
  type ExactNumberSchema,
} from './exact-numbers.js';
import { DocumentError } from './document-error.js';
import { loadAjv, type AjvLibrary } from './load-ajv.js';

/** The id a document is added to Ajv under: schemas of the kit's own refer into it as `openapi.json#/...`. */
export const documentId = 'openapi.json';

/** The JSON Schema keywords Ajv needs told about: OpenAPI's annotations, which validate nothing. */
const openApiAnnotations = ['example', 'xml', 'externalDocs'];

function collectExtensionKeys(value: unknown, keys: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectExtensionKeys(item, keys);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) keys.add(key);
      collectExtensionKeys(child, keys);
    }
  }
}

/** The numeric keywords of an exact-number rule that may hold an integer beyond 2^53. */
const exactBounds = new Set(['minimum', 'maximum', 'multipleOf']);

/**
 * The document as Ajv's standalone code can write it: its schemas are written into the code as JSON,
 * which has no bigints. An integer beyond 2^53 becomes its digits: a bound of the exact-number keyword
 * reads them back (above), and an annotation (an example, a default, an `x-` extension) validates
 * nothing. One in an `enum` or `const` would validate differently as text, and is refused.
 */
function withoutBigInts(value: unknown, validating = false, where = ''): unknown {
  if (typeof value === 'bigint') {
    if (validating) {
      throw new DocumentError(
        `${where}: an integer beyond 2^53 (${value}) in an enum or const cannot be precompiled; its validators can be compiled at run time only`,
      );
    }
    return String(value);
  }
  if (Array.isArray(value)) return value.map((item, index) => withoutBigInts(item, validating, `${where}/${index}`));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      withoutBigInts(child, validating || key === 'enum' || key === 'const', `${where}/${key}`),
    ]),
  );
}

/**
 * The exact-number keyword (see exact-numbers.ts) as generated code: a call of `checkExactNumber` with the
 * keyword's rule written out as a literal (a bound beyond 2^53 as a `BigInt`), whose problem, if any, is
 * added to Ajv's errors with where it was found. Code rather than a function keyword, so that Ajv's
 * standalone code can write it into a module (see precompile-validators.ts), under any `allErrors` mode
 * the kit uses (it always collects every error).
 */
export function exactNumberKeywordDefinition(library: AjvLibrary): CodeKeywordDefinition {
  const { _, str } = library.codegen;
  const { vErrors, errors, instancePath } = library.names;
  return {
    keyword: exactNumberKeyword,
    schemaType: 'object',
    code(cxt) {
      const { gen, data, it } = cxt;
      if (!it.opts.allErrors) throw new Error(`${exactNumberKeyword} needs Ajv's allErrors option`);
      // A bound beyond 2^53 is a bigint, or its digits where the document was made safe for Ajv's standalone code.
      const rule = Object.fromEntries(
        Object.entries(cxt.schema as Record<string, unknown>).map(([key, value]) => [
          key,
          typeof value === 'string' && exactBounds.has(key) ? BigInt(value) : value,
        ]),
      ) as unknown as ExactNumberSchema;
      const entries = Object.entries(rule).map(([key, value]) =>
        typeof value === 'bigint' ? _`${key}: BigInt(${String(value)})` : _`${key}: ${value as number}`,
      );
      const ruleText = entries.reduce((all, entry, index) => (index === 0 ? entry : _`${all}, ${entry}`), _``);
      const check = gen.scopeValue('func', {
        ref: checkExactNumber,
        code: _`require(${exactNumberModule}).checkExactNumber`,
      });
      const literal = _`{${ruleText}}`;
      const ruleName = gen.scopeValue('obj', { ref: rule, key: literal.toString(), code: literal });
      const found = gen.const('found', _`${check}(${ruleName}, ${data})`);
      gen.if(_`${found} !== undefined`, () => {
        gen.assign(_`${found}.instancePath`, _`${instancePath} + ${it.errorPath}`);
        gen.assign(_`${found}.schemaPath`, str`${it.errSchemaPath}/${exactNumberKeyword}`);
        gen.if(
          _`${vErrors} === null`,
          () => gen.assign(vErrors, _`[${found}]`),
          () => gen.code(_`${vErrors}.push(${found})`),
        );
        gen.code(_`${errors}++`);
      });
    },
  };
}

export interface AjvCompilerOptions {
  /** Names the document in the error a runtime without Ajv gets. */
  source: string;
  /** Whether the kit's tests check the document's schemas against the meta-schema (then they are not checked again). */
  checked: boolean;
  /** Keep each validator's code, for Ajv's standalone code (precompiling). */
  keepSource?: boolean;
}

/**
 * An Ajv for one document: its formats (ajv-formats), the exact-number keyword, OpenAPI's annotations and
 * the document's `x-` extensions as keywords that validate nothing, and the document added whole as
 * `openapi.json` (integer and number schemas rewritten to the exact-number keyword), so that every schema
 * keeps its `#/components/...` references.
 */
export function createDocumentAjv(document: OpenAPIV3.Document, options: AjvCompilerOptions): Ajv {
  const library = loadAjv(options.source);
  const ajv = new library.Ajv({
    validateSchema: !options.checked,
    allErrors: true,
    strict: true,
    strictRequired: false,
    discriminator: true,
    // OpenAPI allows `type` with `allOf` members that are not objects themselves.
    allowUnionTypes: true,
    // Precompiling keeps each validator's code, a statement a line, so that a change of the document reads as one in a diff.
    ...(options.keepSource ? { code: { source: true, lines: true } } : {}),
  });
  library.addFormats(ajv);
  ajv.addKeyword(exactNumberKeywordDefinition(library));
  const extensions = new Set<string>();
  collectExtensionKeys(document, extensions);
  // The document's top-level keys (openapi, info, paths, ...) are keywords of that root schema, which validate nothing.
  const topLevel = Object.keys(document).filter((key) => !ajv.getKeyword(key));
  ajv.addVocabulary([...new Set([...openApiAnnotations, ...extensions, ...topLevel])]);
  const exact = withExactNumbers(document) as unknown as object;
  ajv.addSchema(options.keepSource ? (withoutBigInts(exact) as object) : exact, documentId);
  return ajv;
}
