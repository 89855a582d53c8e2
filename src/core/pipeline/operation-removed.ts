import { HttpError } from '../errors/http-error.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

/**
 * Acts out an operation's removal: from the start of its `x-sunset` day (UTC)
 * by the session's clock (which the state checks: see `RequestCall.sunset`),
 * the mock answers it `410 Gone` with an Error body naming the date and the
 * replacement the document gives; the deprecation headers (`Deprecation`,
 * `Sunset`, `Link`) still come with it.
 */
export function operationRemoved(compiled: CompiledDocument, operation: CompiledOperation): HttpError {
  const replacement = operation.replacedBy ? compiled.byId.get(operation.replacedBy) : undefined;
  return new HttpError(
    'operation_removed',
    `${operation.operationId} (${operation.method} ${operation.pathTemplate}) was removed on ${operation.sunset} (its sunset date)${replacement ? `; use ${replacement.operationId} (${replacement.method} ${replacement.pathTemplate}) instead` : ''}`,
  );
}
