import { describeApi, type Resource } from '../../src/core/model/describe-api.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { generationTarget } from '../../src/core/scenarios/scenario-catalogue.js';
import type { GeneratedFields } from '../../src/core/seed/generate-pets.js';
import { collectionShapes } from '../../src/core/store/collection-shapes.js';
import type { CollectionShape } from '../../src/core/store/item-snapshot.js';
import { defaultDocument } from '../../src/generated/default-document.js';

/** The kit's own document, compiled, and what the model reads from it. */
export const kitCompiled = compileDocument(defaultDocument, 'openapi.yaml');
export const kitApi = describeApi(kitCompiled);

function only<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the kit’s document has no ${what}`);
  return value;
}

/** The pets, the kit's one resource. */
export const petResource: Resource = only(kitApi.resources[0], 'resource');
/** The pets as the store holds them. */
export const petShape: CollectionShape = only(collectionShapes(kitApi)[0], 'collection');
/** What the generator fills in a pet (its id, name, categoryId and status), as the model reads them. */
export const petFields: GeneratedFields = only(generationTarget(kitApi), 'generation target').fields;
