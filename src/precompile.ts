/**
 * `petstore-kit/precompile`: precompiles a document's validators for a bundle that must run without eval
 * (see precompile-validators.ts), from a build script. The command: `npx petstore-kit precompile`.
 */
export { precompileValidators, type PrecompileOptions } from './precompile-validators.js';
export type { PrecompiledValidators } from './core/openapi/precompiled-validators.js';
