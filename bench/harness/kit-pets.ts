import { describeApi } from '../../src/core/model/describe-api.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { generatedFields } from '../../src/core/seed/generated-fields.js';
import type { GeneratedField } from '../../src/core/seed/generate-items.js';
import { collectionShapes } from '../../src/core/store/collection-shapes.js';
import type { CollectionShape } from '../../src/core/store/item-snapshot.js';
import { defaultDocument } from '../../src/generated/default-document.js';

const api = describeApi(compileDocument(defaultDocument, 'openapi.yaml'));
const [shape] = collectionShapes(api);
const [resource] = api.resources;
if (!shape || !resource) throw new Error('the kit’s document has no collection of pets');

/** The pets of the kit's document as the store holds them, and what the generator fills in one. */
export const kitPetShape: CollectionShape = shape;
export const kitPetFields: GeneratedField[] = generatedFields(resource);
