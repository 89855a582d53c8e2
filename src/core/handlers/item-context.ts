import { HttpError } from '../errors/http-error.js';
import { notFoundCode } from '../errors/error-codes.js';
import type { OperationSemantics, Resource } from '../model/describe-api.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { Item, ItemId } from '../store/item-snapshot.js';
import type { Awaitable, ResourceStore, StoredCollection } from '../store/resource-store.js';
import type { Handler } from './handler-types.js';
import type { ValidRequest } from './../types/valid-request.js';

/** What the handlers of the document's operations work with: the session's store. */
export interface ItemContext {
  store: ResourceStore;
}

/** The semantics of an operation of a kind the handlers serve: it acts on a resource. */
export type PlacedSemantics = OperationSemantics & { resource: Resource };

/** `no pet has id 42`, as `404 pet_not_found`: an id no item of the resource has. */
export function itemNotFound(resource: Resource, id: unknown): HttpError {
  return new HttpError(
    notFoundCode(resource.itemName),
    `no ${resource.itemName} has ${resource.idField} ${String(id)}`,
  );
}

/** The id a request names in its path (typed by the pipeline: an Int64 for integer ids). */
export function idOfRequest(semantics: OperationSemantics, request: ValidRequest): ItemId {
  return request.path[semantics.idParameter ?? ''] as ItemId;
}

/** The first of these statuses the operation documents, or the first given. */
export function documentedStatus(operation: CompiledOperation, ...statuses: number[]): number {
  return statuses.find((status) => operation.responses.has(String(status))) ?? (statuses[0] as number);
}

/** Whether the operation documents a body for this status. */
export function answersWithBody(operation: CompiledOperation, status: number): boolean {
  return (operation.responses.get(String(status))?.validators.size ?? 0) > 0;
}

/**
 * A write on the item the path names (a replace, an update): the item as
 * `write` leaves it, answered 200, or 204 where the document lists no body;
 * 404 when no item has that id.
 */
export function changeItem(
  semantics: PlacedSemantics,
  write: (collection: StoredCollection, id: ItemId, body: unknown) => Awaitable<Item | undefined>,
): Handler<ItemContext> {
  const { operation, resource } = semantics;
  const status = documentedStatus(operation, 200, 204);
  const withBody = answersWithBody(operation, status);
  return async function change(request, { store }) {
    const id = idOfRequest(semantics, request);
    const item = await write(store.collection(resource.name), id, request.body);
    if (!item) throw itemNotFound(resource, id);
    return withBody ? { status, body: item } : { status };
  };
}
