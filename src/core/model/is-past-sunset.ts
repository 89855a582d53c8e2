import type { CompiledOperation } from '../openapi/compile-document.js';

/** `2030-12-05` → the start of that day in UTC, in ms. */
export function sunsetMoment(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Whether an operation is past its removal date (`x-sunset`) at `now` (ms since the epoch). */
export function isPastSunset(operation: CompiledOperation, now: number): boolean {
  return operation.sunset !== undefined && now >= sunsetMoment(operation.sunset);
}
