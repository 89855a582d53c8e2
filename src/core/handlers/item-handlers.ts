import type { operations } from '../../generated/openapi-types.js';
import { operationKinds as kitOperationKinds } from '../../generated/operation-kinds.js';
import type { ApiModel, OperationSemantics } from '../model/describe-api.js';
import type { ServableKind } from '../model/operation-kind.js';
import { createItem } from './create-item.js';
import { deleteItem } from './delete-item.js';
import type { ItemHandler, ItemHandlerTable } from './handler-types.js';
import type { PlacedSemantics } from './item-context.js';
import { listItems } from './list-items.js';
import { readItem } from './read-item.js';
import { replaceItem } from './replace-item.js';
import { updateItem } from './update-item.js';

/** The behaviour of each kind the kit serves statefully: one handler each, made for an operation of that kind. */
const byKind: { readonly [Kind in ServableKind]: (semantics: PlacedSemantics) => ItemHandler } = {
  list: listItems,
  read: readItem,
  create: createItem,
  replace: replaceItem,
  update: updateItem,
  delete: deleteItem,
};

/**
 * The kinds of the kit's own operations, as `npm run generate` inferred them
 * from openapi.yaml: each must be one the kit serves, so that `tsc` names an
 * operation added to the document without behaviour (kind `other`) until the
 * document places it (`x-petstore-kind`) or the kit learns its kind.
 */
export const kitKinds: { readonly [Id in keyof operations]: ServableKind } = kitOperationKinds;

/**
 * The handlers of a document's operations, by operationId: each operation
 * the model placed gets its kind's handler, bound to what the document says
 * of it (its resource, id parameter, page size and filters). An operation of
 * kind `other` gets none: the fallback answers it.
 */
export function itemHandlers(api: ApiModel): ItemHandlerTable {
  const table: ItemHandlerTable = {};
  for (const semantics of api.operations) {
    if (semantics.kind === 'other' || !semantics.resource) continue;
    table[semantics.operation.operationId] = byKind[semantics.kind](semantics as OperationSemantics & PlacedSemantics);
  }
  return table;
}
