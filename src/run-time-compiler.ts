/**
 * `petstore-kit/run-time-compiler`: Ajv's compiler, for a page that mocks a document of its own without
 * precompiling its validators. Only where the page's Content-Security-Policy allows eval (Ajv compiles
 * each validator with `new Function`); under a strict one, precompile them (`npx petstore-kit precompile`).
 * Node needs neither: it loads Ajv itself when a document of your own is compiled.
 *
 * ```ts
 * import { runTimeCompiler } from 'petstore-kit/run-time-compiler';
 * createMockHandlers({ document, validators: runTimeCompiler });
 * ```
 */
import { _, Ajv, Name, str } from 'ajv';
import addFormats from 'ajv-formats';
import names from 'ajv/dist/compile/names.js';
import { defaultExport, type AjvLibrary, type RunTimeCompiler } from './core/openapi/load-ajv.js';

export type { RunTimeCompiler };

export const runTimeCompiler: RunTimeCompiler = {
  kind: 'run-time-compiler',
  library: {
    Ajv,
    addFormats: defaultExport<AjvLibrary['addFormats']>(addFormats),
    codegen: { _, str, Name },
    names: defaultExport<AjvLibrary['names']>(names),
  },
};
