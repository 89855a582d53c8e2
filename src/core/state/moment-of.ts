import { HttpError } from '../errors/http-error.js';

/**
 * A moment given as a date (`2030-12-06`, the start of that day in UTC), a
 * date-time (`2030-12-06T09:30:00Z`), a `Date` or ms since the epoch, in ms
 * since the epoch. Anything else is a `400 invalid_body` naming `what`.
 */
export function momentOf(value: string | number | Date, what: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw new HttpError(
      'invalid_body',
      `${what} must be a date such as 2030-12-06 or 2030-12-06T09:30:00Z, got ${JSON.stringify(String(value)).slice(0, 80)}`,
    );
  }
  return ms;
}
