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

/**
 * A fraction, an exponent or an integer of 16 digits or more anywhere in the
 * text (inside a string too, which only costs the fast path): what
 * `JSON.parse` could read into another value than `readNumber` does.
 */
const inexactNumber = /\d[.eE]|\d{16}/;

/**
 * The native parser's value when it is provably the exact one, several times
 * faster (the proxy parses every answer it judges). It is when the text holds
 * no number JSON.parse could change, and `JSON.stringify` writes the value
 * back as the very same text: then no key was repeated, no `-0` became `0`,
 * and every number is an integer of at most 15 digits, a safe one, which is
 * its `Int64` form. Any other text (with spaces, escapes, another order of
 * keys, or too deep to write back) takes the exact parser.
 */
function parsedNatively(text: string): unknown {
  if (inexactNumber.test(text)) return notExactNatively;
  try {
    const value: unknown = JSON.parse(text);
    return JSON.stringify(value) === text ? value : notExactNatively;
  } catch {
    // Not JSON, or nested too deeply to write back: the exact parser decides, and says why in its own words.
    return notExactNatively;
  }
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
