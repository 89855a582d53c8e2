// Made by the strict-CSP test when it bundles its page: what `petstore-kit precompile` writes for a document.
declare module 'virtual:own-validators' {
  import type { OpenAPIV3 } from 'openapi-types';
  import type { PrecompiledValidators } from '../../../src/core/openapi/precompiled-validators.js';
  export const document: OpenAPIV3.Document;
  const validators: PrecompiledValidators;
  export default validators;
}
