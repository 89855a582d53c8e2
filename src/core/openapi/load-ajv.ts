import type { Ajv, _, Name, str } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { requireOnDemand } from '../support/require-on-demand.js';
import { DocumentError } from './document-error.js';

/**
 * What compiling validators at run time needs of Ajv: its compiler, ajv-formats, the code generator's
 * templates (for the exact-number keyword, see ajv-compiler.ts) and the names of the generated code's
 * error variables.
 */
export interface AjvLibrary {
  Ajv: typeof Ajv;
  // ajv-formats is CommonJS; under NodeNext its default import is the module object, whose default is the plugin.
  addFormats: typeof addFormatsModule.default;
  codegen: { _: typeof _; str: typeof str; Name: typeof Name };
  /** The variables Ajv's generated code keeps its errors in (`ajv/dist/compile/names`). */
  names: { vErrors: Name; errors: Name; instancePath: Name };
}

/** Ajv for a runtime where the kit cannot load it itself: `runTimeCompiler` of `petstore-kit/run-time-compiler`. */
export interface RunTimeCompiler {
  kind: 'run-time-compiler';
  library: AjvLibrary;
}

let provided: AjvLibrary | undefined;

/**
 * Gives the kit Ajv for compiling at run time where it cannot load it itself: in a browser, through
 * `petstore-kit/run-time-compiler` (where the page's Content-Security-Policy allows eval).
 */
export function provideAjv(library: AjvLibrary): void {
  provided = library;
}

/** A CommonJS module's `exports.default`, whichever way the loader handed the module over. */
export function defaultExport<T>(module: unknown): T {
  const exported = module as { default?: unknown; __esModule?: boolean };
  return (exported.__esModule && 'default' in exported ? exported.default : module) as T;
}

/**
 * Ajv, loaded the first time a validator is compiled at run time: importing the kit loads none of it,
 * and a mock of the kit's own document, whose validators `npm run generate` compiled ahead, never does.
 * In Node through its `require` (synchronous, as `createMock` is, and invisible to bundlers, which so
 * leave Ajv's compiler out of a browser bundle); elsewhere only once `provideAjv` has given it.
 * `what` names the document in the error a page without it gets.
 */
export function loadAjv(what: string): AjvLibrary {
  if (provided) return provided;
  const ajv = requireOnDemand<{ Ajv: typeof Ajv; _: typeof _; str: typeof str; Name: typeof Name }>('ajv');
  if (!ajv) {
    throw new DocumentError(
      `${what}: its validators were not precompiled, and compiling them here needs Ajv, which a browser bundle of the kit leaves out (it evaluates code, which a strict Content-Security-Policy forbids). Precompile them (npx petstore-kit precompile <document> --out validators.js) and pass them as the \`validators\` option, or import { runTimeCompiler } from 'petstore-kit/run-time-compiler' and pass that`,
    );
  }
  provided = {
    Ajv: ajv.Ajv,
    addFormats: defaultExport(requireOnDemand('ajv-formats')),
    codegen: { _: ajv._, str: ajv.str, Name: ajv.Name },
    names: defaultExport(requireOnDemand('ajv/dist/compile/names')),
  };
  return provided;
}
