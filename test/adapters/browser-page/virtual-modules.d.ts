// Made by the strict-CSP test when it bundles its page: a document of the page's own, and its precompiled validators.
declare module 'virtual:own-document' {
  import type { OpenAPIV3 } from 'openapi-types';
  const document: OpenAPIV3.Document;
  export default document;
}
declare module 'virtual:own-validators' {
  import type { PrecompiledValidators } from '../../../src/core/openapi/precompiled-validators.js';
  const validators: PrecompiledValidators;
  export default validators;
}
