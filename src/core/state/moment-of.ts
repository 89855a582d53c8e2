import { HttpError } from '../errors/http-error.js';
import type { SessionClock } from './state-store.js';

/** The first moment a clock may be set to: 0000-01-01T00:00:00.000Z, in ms since the epoch. */
export const earliestMoment = -62_167_219_200_000;
/** The last: 9999-12-31T23:59:59.999Z. Every moment between is written by `toISOString` with a four-digit year. */
export const latestMoment = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A session's clock as the admin API shows it, `offsetMs` from the mock's
 * clock reading `machineNow`. Setting a clock answers with the same reading it
 * took the offset from, so `PUT /__admin/clock` answers the moment it was given.
 */
export function sessionClockAt(machineNow: number, offsetMs: number): SessionClock {
  return { now: new Date(Math.min(machineNow + offsetMs, latestMoment)).toISOString(), offsetMs };
}

/**
 * An RFC 3339 full-date (`2030-12-06`), or date-time with seconds and an
 * offset (`2030-12-06T09:30:00Z`, `…T09:30:00.250+01:00`; `T` and `Z` in
 * either case, RFC 3339 §5.6), and nothing around it.
 */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2})))?$/;

/** How a refused value is shown: quoted, short, its invisible characters escaped (a trailing NUL shows as \u0000). */
function shown(value: unknown): string {
  const text = value instanceof Date ? 'an invalid Date' : JSON.stringify(String(value));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * The moment a text names, in ms since the epoch, or why it names none. Only
 * what RFC 3339 writes is read, strictly: a real calendar date
 * (`2030-02-31` is none), a time within its day (a leap second `23:59:60`
 * cannot be held by the clock), at most milliseconds (the clock counts no
 * finer), an offset within ±23:59, a year from 0000 to 9999 once the offset
 * is applied, and no character before or after it (a space, a NUL).
 */
function parseRfc3339(text: string): number | string {
  const match = rfc3339.exec(text);
  if (!match) return 'it is not an RFC 3339 date (2030-12-06) or date-time (2030-12-06T09:30:00Z)';
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction, , sign, offsetHour, offsetMinute] =
    match;
  if (fraction !== undefined && fraction.length > 3) {
    return 'it holds a fraction of a second finer than the milliseconds the clock counts';
  }
  const parts = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)] as const;
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0'));
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(parts[0], parts[1], parts[2]);
  date.setUTCHours(parts[3], parts[4], parts[5], ms);
  const read = [
    date.getUTCFullYear(),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  // A date that rolls over (February 31st into March, 24:00 into the next day, second 60) is none.
  if (read.some((value, index) => value !== parts[index])) {
    return parts[5] === 60
      ? 'it names a leap second, which the clock cannot hold'
      : 'it is not a real date and time of the calendar';
  }
  if (sign !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) {
    return 'its offset is not one from -23:59 to +23:59';
  }
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHour) * 60 + Number(offsetMinute));
  const moment = date.getTime() - offset * 60_000;
  if (moment < earliestMoment || moment > latestMoment) {
    return 'once its offset is applied it falls outside the years 0000 to 9999';
  }
  return moment;
}

/**
 * The moment `value` names, in ms since the epoch, or why it names none: an
 * RFC 3339 date or date-time (see `parseRfc3339`), a valid `Date`, or a
 * whole number of ms since the epoch, within the years 0000 to 9999.
 */
export function parseMoment(value: string | number | Date): number | string {
  if (typeof value === 'string') return parseRfc3339(value);
  if (value instanceof Date && Number.isNaN(value.getTime())) return 'it is an invalid Date';
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isInteger(ms)) return 'it is not a whole number of ms since the epoch';
  if (ms < earliestMoment || ms > latestMoment) return 'it falls outside the years 0000 to 9999';
  return ms;
}

/**
 * A moment given as a date (`2030-12-06`, the start of that day in UTC), a
 * date-time (`2030-12-06T09:30:00Z`), a `Date` or ms since the epoch, in ms
 * since the epoch (see `parseMoment`). Anything else is a `400 invalid_body`
 * naming `what` and why, thrown before anything is changed.
 */
export function momentOf(value: string | number | Date, what: string): number {
  const moment = parseMoment(value);
  if (typeof moment === 'string') {
    throw new HttpError(
      'invalid_body',
      `${what} must be a date such as 2030-12-06 or a date-time such as 2030-12-06T09:30:00Z, from year 0000 to 9999; ${shown(value)}: ${moment}`,
    );
  }
  return moment;
}
