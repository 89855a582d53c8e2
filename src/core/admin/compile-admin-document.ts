import { describeApi } from '../model/describe-api.js';
import { compileDocument, markDocumentChecked, type CompiledDocument } from '../openapi/compile-document.js';
import { createAdminDocument } from './admin-document.js';
import { storeFilters } from './store-filters.js';

/** The admin API's document, compiled once per API document (its Error schema is the API's own). */
const adminDocuments = new WeakMap<CompiledDocument, CompiledDocument>();

export function compileAdminDocument(api: CompiledDocument): CompiledDocument {
  let admin = adminDocuments.get(api);
  if (!admin) {
    const document = createAdminDocument(
      api.document.components?.schemas ?? {},
      describeApi(api).resources.map((resource) => resource.name),
      storeFilters(api),
    );
    // The kit's own document, built from schemas already checked with the API's: compiled without checking them again.
    markDocumentChecked(document);
    admin = compileDocument(document, 'admin API');
    adminDocuments.set(api, admin);
  }
  return admin;
}
