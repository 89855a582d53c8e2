import { HttpError } from '../errors/http-error.js';
import { notFoundCode } from '../errors/error-codes.js';
import type { OperationSemantics, Resource } from '../model/describe-api.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { RequiredReference } from '../state/state-store.js';
import type { ItemId } from '../store/item-snapshot.js';
import type { ValidRequest } from '../types/valid-request.js';

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
 * The items a write's values refer to (see `Resource.references`), which the
 * store checks in the same call as the write: each reference field the values
 * set, to anything but null. Undefined when there is none, so that a write
 * without references carries nothing more.
 */
export function referencesOf(
  resource: Resource,
  values: Readonly<Record<string, unknown>>,
): RequiredReference[] | undefined {
  let required: RequiredReference[] | undefined;
  for (const { field, collection, itemName } of resource.references) {
    if (!Object.hasOwn(values, field)) continue;
    const id = values[field];
    if (id === null || id === undefined) continue;
    (required ??= []).push({ collection, id: id as ItemId, field, itemName });
  }
  return required;
}
