import type { ApiModel } from '../model/describe-api.js';
import type { CollectionShape } from './item-snapshot.js';

/** What the store needs to know of each resource of the document: its name, id field and the fields lists filter by. */
export function collectionShapes(api: ApiModel): CollectionShape[] {
  return api.resources.map((resource) => ({
    name: resource.name,
    itemName: resource.itemName,
    idField: resource.idField,
    idType: resource.idType,
    indexed: [
      ...new Set(
        api.operations
          .filter((each) => each.resource === resource && each.kind === 'list')
          .flatMap((each) => each.filters),
      ),
    ],
  }));
}
