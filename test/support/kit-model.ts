import { describeApi, type Resource } from '../../src/core/model/describe-api.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { generatedFields } from '../../src/core/seed/generated-fields.js';
import type { GeneratedField, GenerateItemsOptions } from '../../src/core/seed/generate-items.js';
import { collectionShapes } from '../../src/core/store/collection-shapes.js';
import type { CollectionShape } from '../../src/core/store/item-snapshot.js';
import type { MemoryCollection, MemoryStore } from '../../src/core/store/memory-store.js';
import type { ExactPet } from '../../src/core/types/api-types.js';
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
/** What the generator fills in a pet (its name, categoryId and status besides the id), as the model reads them. */
export const petFields: GeneratedField[] = generatedFields(petResource);

/** What the generator is asked for `count` pets: the kit's fields, from id 1 unless `more` says otherwise. */
export function petsAsked(count: number, seed: number, more: Partial<GenerateItemsOptions> = {}): GenerateItemsOptions {
  return { collection: petResource.name, idField: petResource.idField, count, seed, fields: petFields, ...more };
}

/** The pets of a store of the kit's document: its collection named after the resource. */
export function petsIn(store: MemoryStore): MemoryCollection<ExactPet> {
  return store.collection<ExactPet>(petResource.name);
}
