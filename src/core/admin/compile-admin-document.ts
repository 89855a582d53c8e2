import { describeApi } from '../model/describe-api.js';
import { compileDocument, markDocumentChecked, type CompiledDocument } from '../openapi/compile-document.js';
import { loadPrecompiled } from '../openapi/precompiled-validators.js';
import type { Awaitable } from '../types/awaitable.js';
import { storeFilters } from './store-filters.js';

/** The admin API's document, compiled once per API document (its Error schema is the API's own). */
const adminDocuments = new WeakMap<CompiledDocument, CompiledDocument>();

/**
 * The admin API's document for an API's, compiled: at once when a mock of the same API document has
 * compiled it already; otherwise once its template (admin-api.yaml as an object, about 30 KB of source)
 * is imported, with its precompiled validators (the kit's own: most of their code), which is left to
 * the admin API's first request, so that a process that never calls the admin API (a test file's) never
 * loads them.
 */
export function compileAdminDocument(api: CompiledDocument): Awaitable<CompiledDocument> {
  return (
    adminDocuments.get(api) ??
    Promise.all([import('./admin-document.js'), loadPrecompiled()]).then(([{ createAdminDocument }]) => {
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
    })
  );
}
