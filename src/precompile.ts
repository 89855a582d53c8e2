/**
 * `petstore-kit/precompile`: precompiles a document's validators for a bundle that must run without eval
 * (see precompile-validators.ts), from a build script; `loadDocument` reads a YAML or JSON document as the
 * kit does, integers exactly. The same as a command: `npx petstore-kit precompile`.
 */
export { precompileValidators, type PrecompileOptions } from './precompile-validators.js';
export { loadDocument } from './node/load-document.js';
export type { PrecompiledValidators } from './core/openapi/precompiled-validators.js';
