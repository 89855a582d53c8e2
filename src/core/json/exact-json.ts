import { parse, stringify } from 'lossless-json';

/**
 * An integer as the API holds it: a `number` when it is a safe integer
 * (|n| ≤ 2^53−1), a `bigint` otherwise. Every value has exactly one form, so
 * `===`, `Map` keys and `<` (which compares a bigint with a number exactly)
 * all work on it.
 */
export type Int64 = number | bigint;

export const int64Min = -(2n ** 63n);
export const int64Max = 2n ** 63n - 1n;

/**
 * A JSON number that is neither a safe integer nor an integer of the int64
 * range, kept exactly as it was written: `1.0`, `2.5`, `1e3`, `-0.0`,
 * `99999999999999999999`. JSON Schema draft-04 semantics (OpenAPI 3.0) say
 * that `1.0` and `1e3` are not integers, so they must not be turned into one.
 */
export class NumberLiteral {
  /** True for a literal written with digits only (an integer outside int64). */
  readonly isInteger: boolean;
  constructor(readonly text: string) {
    this.isInteger = integerLiteral.test(text);
  }
  toString(): string {
    return this.text;
  }
  /**
   * `JSON.stringify` cannot write a literal as it was read; `stringifyJson`
   * catches this and writes it exactly.
   */
  toJSON(): never {
    throw new NeedsExactWriter();
  }
}

class NeedsExactWriter extends Error {}

const integerLiteral = /^-?\d+$/;

/** The longest integer literal (sign aside) that can lie in the int64 range: 19 digits. */
const int64Digits = 19;

/**
 * Reads an integer written in decimal digits into its one `Int64` form, or
 * `undefined` when the text is not such an integer or lies outside
 * −2^63..2^63−1. `-0` reads as `0`.
 */
export function toInt64(text: string): Int64 | undefined {
  if (!integerLiteral.test(text)) return undefined;
  const digits = text.startsWith('-') ? text.length - 1 : text.length;
  if (digits <= 15) return Number(text) || 0;
  if (digits > int64Digits + 1) return undefined;
  const big = BigInt(text);
  if (big < int64Min || big > int64Max) return undefined;
  return normaliseInt64(big);
}

/** A safe bigint becomes a number, so that each value has one form. */
export function normaliseInt64(value: bigint): Int64 {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

/** True for a value in its `Int64` form (a safe integer number, or an unsafe bigint within int64). */
export function isInt64(value: unknown): value is Int64 {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (typeof value === 'bigint') return value >= int64Min && value <= int64Max && normaliseInt64(value) === value;
  return false;
}

function readNumber(text: string): number | bigint | NumberLiteral {
  return toInt64(text) ?? new NumberLiteral(text);
}

/** A text that is not JSON; the message says where and why. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/**
 * Parses JSON without losing anything it holds: integers come back as
 * `Int64` (number or bigint), every other number as a `NumberLiteral` with
 * its text; a key repeated with another value is an error, not a silent
 * choice; `__proto__` stays a plain key. Throws `JsonSyntaxError`, or
 * `RangeError` when the text nests too deeply to parse.
 */
export function parseExactJson(text: string): unknown {
  const native = parsedNatively(text);
  return native === notExactNatively ? parseWithLiterals(text) : native;
}

/**
 * `parseExactJson` without its fast path: lossless-json, with numbers read
 * by `readNumber`. Exported for the test that shows both paths agree.
 */
export function parseWithLiterals(text: string): unknown {
  try {
    return parse(text, null, readNumber);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    throw new JsonSyntaxError((error as Error).message);
  }
}

const notExactNatively = Symbol('not exact natively');

/** Arrays and objects nested deeper than this take the exact parser, whose limit is the one every caller knows. */
const maxNativeDepth = 1_000;

/**
 * How many object keys a JSON text writes, read outside its strings in one
 * pass; or undefined when it writes a number `JSON.parse` could read into
 * another value than `readNumber` does: a fraction or an exponent, an integer
 * of 16 digits or more (beyond 2^53 it would be rounded), or `-0` (read as
 * −0, not 0); or that nests deeper than `maxNativeDepth`. Assumes nothing of
 * the text's validity: `JSON.parse` decides that.
 */
function scanForNativeParse(text: string): number | undefined {
  let keys = 0;
  let depth = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      // A string: skip to its closing quote (one not escaped by an odd run of backslashes).
      let end = text.indexOf('"', index + 1);
      for (;;) {
        if (end === -1) return keys;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      index = end + 1;
      // A string followed by a colon (after white space) is a key.
      let next = text.charCodeAt(index);
      while (next === 32 || next === 10 || next === 13 || next === 9) next = text.charCodeAt(++index);
      if (next === 58) keys++;
      continue;
    }
    if (code === 91 || code === 123) {
      // Deeper than the exact parser reads: let it say so, as it always has (a RangeError).
      if (++depth > maxNativeDepth) return undefined;
      index++;
      continue;
    }
    if (code === 93 || code === 125) {
      depth--;
      index++;
      continue;
    }
    if (code === 45 || (code >= 48 && code <= 57)) {
      const start = code === 45 ? index + 1 : index;
      let end = start;
      let digit = text.charCodeAt(end);
      while (digit >= 48 && digit <= 57) digit = text.charCodeAt(++end);
      if (digit === 46 || digit === 101 || digit === 69) return undefined;
      if (end - start >= 16) return undefined;
      if (code === 45 && end - start === 1 && text.charCodeAt(start) === 48) return undefined;
      index = end;
      continue;
    }
    index++;
  }
  return keys;
}

/** How many keys the objects of a parsed value hold, all together (iteratively: a deep value cannot overflow). */
function countKeys(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      for (const child of item) if (typeof child === 'object' && child !== null) pending.push(child);
      continue;
    }
    for (const key in item) {
      keys++;
      const child = (item as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return keys;
}

/**
 * The native parser's value when it is provably the exact one, several times
 * faster (the proxy parses every answer it judges). It is when the text
 * writes no number `JSON.parse` could read otherwise (see
 * `scanForNativeParse`), and the parsed value holds as many keys as the text
 * writes: a key repeated in an object (which `JSON.parse` would silently
 * keep the last of) makes the value hold fewer. Every number is then an
 * integer of at most 15 digits, a safe one, which is its `Int64` form. Any
 * other text takes the exact parser, which says why in its own words.
 */
function parsedNatively(text: string): unknown {
  const keys = scanForNativeParse(text);
  if (keys === undefined) return notExactNatively;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON, or nested too deeply: the exact parser decides, and says why in its own words.
    return notExactNatively;
  }
  return countKeys(value) === keys ? value : notExactNatively;
}

const exactNumbers = [
  { test: (value: unknown) => value instanceof NumberLiteral, stringify: (value: unknown) => String(value) },
];

/**
 * Writes JSON with every number exactly as held: bigints as their digits,
 * `NumberLiteral`s as written. Values without either take the native
 * `JSON.stringify` path, which is several times faster.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof NeedsExactWriter) && !(error instanceof TypeError && /BigInt/i.test(error.message))) {
      throw error;
    }
    return stringify(value, null, indent, exactNumbers) as string;
  }
}

/** Orders two Int64 values (a bigint and a number compare exactly in JavaScript). */
export function compareInt64(a: Int64, b: Int64): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
