import { describeApi } from '../../src/core/model/describe-api.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { generationTarget } from '../../src/core/scenarios/scenario-catalogue.js';
import type { GeneratedFields } from '../../src/core/seed/generate-pets.js';
import { collectionShapes } from '../../src/core/store/collection-shapes.js';
import type { CollectionShape } from '../../src/core/store/item-snapshot.js';
import { defaultDocument } from '../../src/generated/default-document.js';

const api = describeApi(compileDocument(defaultDocument, 'openapi.yaml'));
const [shape] = collectionShapes(api);
const target = generationTarget(api);
if (!shape || !target) throw new Error('the kit’s document has no collection of pets');

/** The pets of the kit's document as the store holds them, and what the generator fills in one. */
export const kitPetShape: CollectionShape = shape;
export const kitPetFields: GeneratedFields = target.fields;
