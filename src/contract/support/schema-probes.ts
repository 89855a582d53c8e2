import type { OpenAPIV3 } from 'openapi-types';
import { type Int64, int64Max, int64Min, normaliseInt64, NumberLiteral } from '../../core/json/exact-json.js';

/**
 * Values derived from a schema, the way a coverage phase derives them (as
 * Schemathesis's does): boundaries of integer ranges, awkward text, each enum
 * value with its near misses, integers written as decimals. Each probe says
 * what it is, so that a failure names it.
 */

const formatRanges: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [int64Min, int64Max],
};

export interface IntegerRange {
  /** Undefined: no lower bound. */
  min: bigint | undefined;
  max: bigint | undefined;
}

/** The integers a schema allows: its format's range (int32, int64) narrowed by minimum and maximum. */
export function integerRange(schema: OpenAPIV3.SchemaObject): IntegerRange {
  const range = schema.format === undefined ? undefined : formatRanges[schema.format];
  let min = range?.[0];
  let max = range?.[1];
  if (schema.minimum !== undefined) {
    const bound =
      BigInt(Math.ceil(schema.minimum)) +
      (schema.exclusiveMinimum === true && Number.isInteger(schema.minimum) ? 1n : 0n);
    if (min === undefined || bound > min) min = bound;
  }
  if (schema.maximum !== undefined) {
    const bound =
      BigInt(Math.floor(schema.maximum)) -
      (schema.exclusiveMaximum === true && Number.isInteger(schema.maximum) ? 1n : 0n);
    if (max === undefined || bound < max) max = bound;
  }
  return { min, max };
}

/** Where integer handling commonly breaks: sign, 32 bits, 53 bits (a double's exact integers). */
const landmarks = [-1n, 0n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n + 1n];

export interface IntegerBoundaries {
  /** Values inside the range: the ends, and each landmark within it. */
  valid: Int64[];
  /** Values just outside it: one below the minimum, one above the maximum. */
  invalid: bigint[];
}

/**
 * The boundary values of an integer schema: for int64, -2^63, -1, 0, 2^31-1, 2^31,
 * 2^32, 2^53-1, 2^53+1 and 2^63-1 inside, -2^63-1 and 2^63 outside; for `limit`
 * (1 to 100), 1 and 100 inside, 0 and 101 outside.
 */
export function integerBoundaries(schema: OpenAPIV3.SchemaObject): IntegerBoundaries {
  const { min, max } = integerRange(schema);
  const inRange = (value: bigint): boolean =>
    (min === undefined || value >= min) && (max === undefined || value <= max);
  const valid = [
    ...(min === undefined ? [] : [min]),
    ...landmarks.filter(inRange),
    ...(max === undefined ? [] : [max]),
  ];
  const invalid = [...(min === undefined ? [] : [min - 1n]), ...(max === undefined ? [] : [max + 1n])];
  const unique = [...new Set(valid.map(String))].map((text) => BigInt(text));
  return { valid: unique.map((value) => normaliseInt64(value)), invalid };
}

/** An integer the schema allows, to write as a decimal: 1 when allowed, else the range's minimum. */
function wholeValue(schema: OpenAPIV3.SchemaObject): bigint {
  const { min, max } = integerRange(schema);
  if ((min === undefined || min <= 1n) && (max === undefined || max >= 1n)) return 1n;
  return min ?? max ?? 1n;
}

/**
 * Whole numbers written as decimals or with an exponent (`1.0`, `1e0`, ...), which
 * OpenAPI 3.0 (JSON Schema draft-04/05) does not count as integers. Sent as raw
 * JSON text; each must be refused.
 */
export function decimalLiterals(schema: OpenAPIV3.SchemaObject): NumberLiteral[] {
  const v = wholeValue(schema);
  return [`${v}.0`, `${v}.00`, `${v}e0`, `${v}E+0`, `${v * 10n}e-1`, `${v * 100n}E-2`].map(
    (text) => new NumberLiteral(text),
  );
}

export interface TextProbe {
  what: string;
  /** The text to send, name prefix included where it can be (every probe but the empty string). */
  text: string;
}

/** The length of the long-text probe, prefix included: 10 KB. */
export const longTextLength = 10_240;

/**
 * Text a correct deployment stores and returns byte for byte: non-ASCII scripts
 * (accents, CJK, emoji with joiners, right-to-left, combining marks that must not
 * be normalised), quotes and backslashes (with a literal `\u0041` that a double
 * decoder would turn into `A`), spaces around the text (never to be trimmed),
 * the empty string and 10 KB.
 */
export function textProbes(prefix: string): TextProbe[] {
  const filler = 'Long pet name 0123456789 ';
  const long = filler.repeat(Math.ceil(longTextLength / filler.length)).slice(0, longTextLength - prefix.length);
  return [
    { what: 'accented Latin', text: `${prefix}Zoë Café Ñandú Øre straße` },
    { what: 'CJK', text: `${prefix}熊猫 パンダ 판다` },
    { what: 'emoji with joiners and a flag', text: `${prefix}🐶🐱🦜 👩‍👩‍👧 🏳️‍🌈` },
    { what: 'right-to-left scripts', text: `${prefix}قطة חתול` },
    { what: 'combining marks (not to be normalised)', text: `${prefix}Zoe\u0308 Cafe\u0301 n\u0303` },
    {
      what: 'quotes and backslashes',
      text: `${prefix}say "hi" 'there' back\\slash \\"escaped\\" \\u0041 C:\\pets\\`,
    },
    { what: 'leading and trailing spaces (not to be trimmed)', text: `  ${prefix}spaced \t ` },
    { what: 'the empty string', text: '' },
    { what: '10 KB of text', text: `${prefix}${long}` },
  ];
}

export interface EnumNearMiss {
  value: string;
  what: string;
}

/** For each enum value: the same value in other letter cases, with spaces around it, a letter short or long. */
export function enumNearMisses(values: readonly string[]): EnumNearMiss[] {
  const allowed = new Set(values);
  const misses: EnumNearMiss[] = [];
  for (const value of values) {
    const capitalised = `${value.charAt(0).toUpperCase()}${value.slice(1)}`;
    misses.push(
      { value: value.toUpperCase(), what: `'${value}' in upper case` },
      { value: capitalised, what: `'${value}' capitalised` },
      { value: `${value} `, what: `'${value}' with a trailing space` },
      { value: ` ${value}`, what: `'${value}' with a leading space` },
      { value: value.slice(0, -1), what: `'${value}' without its last letter` },
      { value: `${value}s`, what: `'${value}' with a letter added` },
    );
  }
  const seen = new Set<string>();
  return misses.filter((miss) => {
    if (allowed.has(miss.value) || seen.has(miss.value)) return false;
    seen.add(miss.value);
    return true;
  });
}

/** `9007199254740993` → `2^53+1`, `-9223372036854775808` → `-2^63`: a boundary as a reader knows it. */
export function powerName(value: Int64 | bigint): string {
  const v = BigInt(value);
  const magnitude = v < 0n ? -v : v;
  const sign = v < 0n ? '-' : '';
  for (let k = 8n; k <= 64n; k += 1n) {
    const power = 2n ** k;
    if (magnitude === power) return `${sign}2^${k}`;
    if (magnitude === power - 1n) return `${sign}2^${k}${v < 0n ? '+' : '-'}1`;
    if (magnitude === power + 1n) return `${sign}2^${k}${v < 0n ? '-' : '+'}1`;
  }
  return v.toString();
}
