import { HttpError } from '../errors/http-error.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

/** `2030-12-05` → the start of that day in UTC, in ms. */
export function sunsetMoment(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Whether an operation is past its removal date (`x-sunset`) at `now` (ms since the epoch). */
export function isPastSunset(operation: CompiledOperation, now: number): boolean {
  return operation.sunset !== undefined && now >= sunsetMoment(operation.sunset);
}

/**
 * Acts out an operation's removal: from the start of its `x-sunset` day (UTC)
 * by the session's clock, the mock answers it `410 Gone` with an Error body
 * naming the date and the replacement the document gives; the deprecation
 * headers (`Deprecation`, `Sunset`, `Link`) still come with it. Before that
 * day, nothing happens.
 */
export function checkSunset(compiled: CompiledDocument, operation: CompiledOperation, now: number): void {
  if (!isPastSunset(operation, now)) return;
  const replacement = operation.replacedBy ? compiled.byId.get(operation.replacedBy) : undefined;
  throw new HttpError(
    'operation_removed',
    `${operation.operationId} (${operation.method} ${operation.pathTemplate}) was removed on ${operation.sunset} (its sunset date)${replacement ? `; use ${replacement.operationId} (${replacement.method} ${replacement.pathTemplate}) instead` : ''}`,
  );
}
