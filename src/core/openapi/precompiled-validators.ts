import type { ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import validationErrorModule from 'ajv/dist/runtime/validation_error.js';
import { DocumentError } from './document-error.js';
import { checkExactNumber, exactNumberModule } from './exact-numbers.js';
import { defaultExport } from './load-ajv.js';

/**
 * The validators of one document, compiled ahead by Ajv (its standalone code): plain functions, which a
 * page whose Content-Security-Policy forbids eval can run, and which cost nothing to compile.
 */
export interface PrecompiledDocument {
  /** `hashText` of the document's exact JSON: the validators serve that document only. */
  hash: string;
  /**
   * Makes the validators, by what compile-document.ts asks for (a JSON pointer into the document, or a
   * schema's JSON text), asking `load` for the run-time helpers they call (Ajv's, ajv-formats' formats,
   * the exact-number check).
   */
  build(load: (id: string) => unknown): Record<string, ValidateFunction>;
}

/**
 * What `petstore-kit precompile` writes (and `npm run generate`, for the kit's own document): the
 * validators of a document and of the admin API the kit derives from it. Pass it as the `validators`
 * option of `createMock` or `createMockHandlers`.
 */
export interface PrecompiledValidators {
  kind: 'precompiled-validators';
  /** The layout's version: a kit refuses validators written for another. */
  version: 1;
  /** Which document it was made from, for messages. */
  source: string;
  api: PrecompiledDocument;
  admin: PrecompiledDocument;
}

/** The layout of precompiled validators this kit reads and writes. */
export const precompiledVersion = 1;

/**
 * A 64-bit hash of a text, as 16 hex digits (two 32-bit multiplicative hashes, mixed): tells precompiled
 * validators' document from another, not meant to resist anyone forging one.
 */
export function hashText(text: string): string {
  let first = 0xdeadbeef ^ text.length;
  let second = 0x41c6ce57 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  const hex = (value: number) => (value >>> 0).toString(16).padStart(8, '0');
  return `${hex(second)}${hex(first)}`;
}

/**
 * What the generated code may ask its loader for: the helpers Ajv's and ajv-formats' generated code
 * calls, each under the module id Ajv writes (`require("ajv/dist/runtime/equal").default`), and the
 * kit's exact-number check.
 */
const helpers: Readonly<Record<string, unknown>> = {
  'ajv/dist/runtime/ucs2length': { default: defaultExport(ucs2lengthModule) },
  'ajv/dist/runtime/equal': { default: defaultExport(equalModule) },
  'ajv/dist/runtime/validation_error': { default: defaultExport(validationErrorModule) },
  'ajv-formats/dist/formats': { fullFormats },
  [exactNumberModule]: { checkExactNumber },
};

function loadHelper(id: string): unknown {
  if (!Object.hasOwn(helpers, id)) {
    throw new DocumentError(
      `precompiled validators call '${id}', which this version of the kit does not provide: precompile them again with it`,
    );
  }
  return helpers[id];
}

/**
 * Validators by their document's hash: those `usePrecompiledValidators` and `usePrecompiledDocument` were
 * given, built on first use, and those `usePrecompiledLater` promised, until `loadPrecompiled` has them.
 */
const registered = new Map<
  string,
  {
    document?: PrecompiledDocument;
    load?: () => Promise<PrecompiledDocument>;
    built?: Record<string, ValidateFunction>;
  }
>();

/** Checks that an object is what `petstore-kit precompile` writes, in the layout this kit reads. */
export function checkPrecompiled(validators: PrecompiledValidators): void {
  if (validators?.kind !== 'precompiled-validators') {
    throw new DocumentError(
      'the validators option is neither precompiled validators (npx petstore-kit precompile) nor the run-time compiler',
    );
  }
  if (validators.version !== precompiledVersion) {
    throw new DocumentError(
      `${validators.source}: its validators were precompiled in layout ${String(validators.version)}, and this kit reads layout ${precompiledVersion}: precompile them again`,
    );
  }
}

/**
 * Makes precompiled validators known: a document whose exact JSON has their hash uses them rather than
 * compiling its own (the API's document and the admin API's derived from it alike). Built on first use.
 */
export function usePrecompiledValidators(validators: PrecompiledValidators): void {
  checkPrecompiled(validators);
  usePrecompiledDocument(validators.api);
  usePrecompiledDocument(validators.admin);
}

/** Makes one document's precompiled validators known (see `usePrecompiledValidators`). */
export function usePrecompiledDocument(document: PrecompiledDocument): void {
  const entry = registered.get(document.hash);
  if (!entry) registered.set(document.hash, { document });
  else entry.document ??= document;
}

/**
 * Makes known that the document with this hash has precompiled validators that `load` imports: the kit's
 * admin API's (most of its validators' code), left out of its import. `loadPrecompiled` imports them
 * before such a document is compiled; until then a document of that hash would compile its own.
 */
export function usePrecompiledLater(hash: string, load: () => Promise<PrecompiledDocument>): void {
  if (!registered.has(hash)) registered.set(hash, { load });
}

/** Imports the validators `usePrecompiledLater` promised (undefined when there are none left to import). */
export function loadPrecompiled(): Promise<void> | undefined {
  const loads: Array<Promise<void>> = [];
  for (const entry of registered.values()) {
    const { load } = entry;
    if (entry.document || !load) continue;
    loads.push(
      load().then((document) => {
        entry.document ??= document;
      }),
    );
  }
  return loads.length === 0 ? undefined : Promise.all(loads).then(() => undefined);
}

/** Hashes known ahead, by their text (the kit's own document's, generated with it). */
const knownHashes = new Map<string, string>();

/**
 * Makes the hash of a text known ahead (the kit's document's exact JSON, generated with its validators):
 * a mock of that document finds its validators by the text itself, which the engine hashes natively,
 * instead of running `hashText` over it on its first start.
 */
export function knowHash(text: string, hash: string): void {
  knownHashes.set(text, hash);
}

/** The precompiled validators of the document with this exact JSON (written only if any were made known). */
export function precompiledFor(json: string | (() => string)): Record<string, ValidateFunction> | undefined {
  if (registered.size === 0) return undefined;
  const text = typeof json === 'string' ? json : json();
  const entry = registered.get(knownHashes.get(text) ?? hashText(text));
  if (!entry?.document) return undefined;
  entry.built ??= entry.document.build(loadHelper);
  return entry.built;
}
