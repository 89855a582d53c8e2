import type { ErrorObject } from 'ajv';
import { int64Max, int64Min, NumberLiteral } from '../json/exact-json.js';

/**
 * Ajv knows numbers only as JavaScript numbers, which hold integers exactly
 * only up to 2^53−1, and it takes `1.0` for an integer. Requests and
 * responses are parsed exactly instead (see exact-json.ts): integers as
 * number or bigint, other literals as `NumberLiteral`. So every schema of
 * type `integer` or `number` is handed to Ajv as this one keyword, which
 * checks the type, the format and the bounds on the exact value.
 */
export const exactNumberKeyword = 'petstore-exact-number';

/**
 * The module validators' generated code asks its loader for `checkExactNumber`, as it asks for Ajv's own
 * run-time helpers (`require("ajv/dist/runtime/ucs2length")`): see precompiled-validators.ts.
 */
export const exactNumberModule = 'petstore-kit/exact-number';

/** The numeric keywords a schema of type integer or number may carry. */
const numericKeywords = [
  'type',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'nullable',
] as const;

/** A number written in the schema: a bigint when it is an integer beyond 2^53−1 (documents are read exactly). */
type SchemaNumber = number | bigint;

export interface ExactNumberSchema {
  type: 'integer' | 'number';
  format?: string;
  minimum?: SchemaNumber;
  maximum?: SchemaNumber;
  /** OpenAPI 3.0 (draft-04/05): a boolean that makes `minimum` exclusive. */
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: SchemaNumber;
  nullable?: boolean;
}

const ranges: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [int64Min, int64Max],
};

/**
 * A copy of the document in which each integer or number schema is the one
 * keyword above. Only schema positions are rewritten; the original document
 * (examples included) is left as it is.
 */
export function withExactNumbers<T>(document: T): T {
  return rewrite(document, false) as T;
}

/** Keys under which a schema holds a map of schemas, a list of schemas, or one schema. */
const schemaMaps = new Set(['properties']);
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf']);
const schemaValues = new Set(['items', 'not', 'additionalProperties', 'schema']);
/** Keys whose values are data, never schemas: left as they are. */
const dataKeys = new Set(['example', 'examples', 'default', 'enum']);

function mapValues(map: unknown): unknown {
  if (typeof map !== 'object' || map === null) return map;
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, rewrite(schema, true)]));
}

function rewrite(value: unknown, isSchema: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, isSchema));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    if (dataKeys.has(key)) result[key] = child;
    else if (isSchema && schemaMaps.has(key)) result[key] = mapValues(child);
    else if (isSchema && schemaLists.has(key)) result[key] = rewrite(child, true);
    else if (schemaValues.has(key)) result[key] = typeof child === 'boolean' ? child : rewrite(child, true);
    else if (!isSchema && key === 'schemas') result[key] = mapValues(child);
    else result[key] = rewrite(child, false);
  }
  if (isSchema && (source.type === 'integer' || source.type === 'number')) {
    const numeric: Record<string, unknown> = {};
    for (const keyword of numericKeywords) {
      if (keyword in result) {
        numeric[keyword] = result[keyword];
        delete result[keyword];
      }
    }
    result[exactNumberKeyword] = numeric;
  }
  return result;
}

/**
 * An integer (its exact value; for a literal too long to read as a bigint quickly, a value beyond every bound
 * a schema can state, and its digits) or a decimal (the double it denotes).
 */
type Exact = { kind: 'int'; value: bigint; digits?: string } | { kind: 'decimal'; value: number };

/** Integer literals longer than this are not read as bigints (that costs time quadratic in their length). */
const longestReadInteger = 400;
/** Beyond every bound a schema can state: the largest double has 309 digits. */
const beyondEveryBound = 10n ** BigInt(longestReadInteger);

/** The exact value of a parsed number, or undefined when the value is not a number at all. */
function exactValue(data: unknown): Exact | undefined {
  if (typeof data === 'number') {
    return Number.isInteger(data) ? { kind: 'int', value: BigInt(data) } : { kind: 'decimal', value: data };
  }
  if (typeof data === 'bigint') return { kind: 'int', value: data };
  if (data instanceof NumberLiteral) {
    if (!data.isInteger) return { kind: 'decimal', value: Number(data.text) };
    if (data.text.length <= longestReadInteger) return { kind: 'int', value: BigInt(data.text) };
    const negative = data.text.startsWith('-');
    return { kind: 'int', value: negative ? -beyondEveryBound : beyondEveryBound, digits: data.text.replace('-', '') };
  }
  return undefined;
}

/** A literal as a message shows it: at most 40 characters, so that a megabyte of digits is not sent back. */
function shown(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const isWhole = (bound: SchemaNumber): boolean => typeof bound === 'bigint' || Number.isInteger(bound);

/** Orders a value against a bound of the schema, exactly whenever the value is an integer. */
function compare(exact: Exact, bound: SchemaNumber): number {
  if (typeof bound === 'number' && !Number.isFinite(bound)) return bound > 0 ? -1 : 1;
  if (exact.kind === 'int') {
    if (isWhole(bound)) {
      const limit = BigInt(bound);
      return exact.value < limit ? -1 : exact.value > limit ? 1 : 0;
    }
    // An integer never equals a bound with a fraction: it lies below it when it is at most its floor.
    return exact.value <= BigInt(Math.floor(bound as number)) ? -1 : 1;
  }
  // A decimal is a double already: the bound is compared as one.
  const limit = Number(bound);
  return exact.value < limit ? -1 : exact.value > limit ? 1 : 0;
}

/** Whether the value is a multiple of `step`, exactly when both are integers. */
function isMultiple(exact: Exact, step: SchemaNumber): boolean {
  if (exact.kind === 'int' && isWhole(step)) {
    const divisor = BigInt(step);
    if (exact.digits === undefined) return exact.value % divisor === 0n;
    // Digit by digit, for a literal too long to read whole.
    let remainder = 0n;
    for (const digit of exact.digits) remainder = (remainder * 10n + BigInt(digit)) % divisor;
    return remainder === 0n;
  }
  return Number.isInteger(Number(exact.value) / Number(step));
}

/** Ajv fills in `instancePath` and `schemaPath` of a keyword's errors when they are left out. */
function problem(keyword: string, message: string, params: Record<string, unknown>): ErrorObject {
  return { keyword, message, params } as ErrorObject;
}

/**
 * Whether a safe integer is plainly valid: the common case (every id and
 * count of an answer), decided as doubles (a safe integer and a bound the
 * schema writes as a number are both exact as doubles) without the bigints
 * the exact path reads values into. False sends it on to the exact path,
 * which decides a bigint bound too, and words the error.
 */
function plainlyValid(schema: ExactNumberSchema, data: number): boolean {
  const range = schema.format === undefined ? undefined : ranges[schema.format];
  if (range && (data < Number(range[0]) || data > Number(range[1]))) return false;
  const { minimum, maximum, multipleOf } = schema;
  if (minimum !== undefined) {
    if (typeof minimum !== 'number' || data < minimum || (data === minimum && schema.exclusiveMinimum === true)) {
      return false;
    }
  }
  if (maximum !== undefined) {
    if (typeof maximum !== 'number' || data > maximum || (data === maximum && schema.exclusiveMaximum === true)) {
      return false;
    }
  }
  return (
    multipleOf === undefined ||
    (typeof multipleOf === 'number' && Number.isSafeInteger(multipleOf) && data % multipleOf === 0)
  );
}

/**
 * The keyword's check: undefined when `data` is valid, else the problem (its keyword, message and params;
 * Ajv's generated code adds where). Called by validators compiled at run time and ahead alike.
 */
export function checkExactNumber(schema: ExactNumberSchema, data: unknown): ErrorObject | undefined {
  if (data === null && schema.nullable === true) return undefined;
  if (typeof data === 'number' && Number.isSafeInteger(data) && plainlyValid(schema, data)) return undefined;
  return checkExactly(schema, data);
}

/**
 * The exact path of `checkExactNumber`, apart from it: V8 compiles a function whole on its first call, and
 * most processes (every answer of ids and counts) never need this one.
 */
function checkExactly(schema: ExactNumberSchema, data: unknown): ErrorObject | undefined {
  const exact = exactValue(data);
  const literal = data instanceof NumberLiteral;
  if (schema.type === 'integer') {
    if (!exact || exact.kind !== 'int' || (literal && !data.isInteger)) {
      const written = literal && !data.isInteger ? ` (${shown(data.text)} is written as a decimal)` : '';
      return problem('type', `must be integer${written}`, { type: 'integer' });
    }
  } else if (!exact) {
    return problem('type', 'must be number', { type: 'number' });
  }
  const range = schema.format === undefined ? undefined : ranges[schema.format];
  if (range && exact.kind === 'int' && (exact.value < range[0] || exact.value > range[1])) {
    return problem('format', `must be an ${schema.format} (from ${range[0]} to ${range[1]})`, {
      format: schema.format,
    });
  }
  if (schema.minimum !== undefined) {
    const order = compare(exact, schema.minimum);
    if (order < 0 || (order === 0 && schema.exclusiveMinimum === true)) {
      const comparison = schema.exclusiveMinimum === true ? '>' : '>=';
      return problem('minimum', `must be ${comparison} ${schema.minimum}`, { comparison, limit: schema.minimum });
    }
  }
  if (schema.maximum !== undefined) {
    const order = compare(exact, schema.maximum);
    if (order > 0 || (order === 0 && schema.exclusiveMaximum === true)) {
      const comparison = schema.exclusiveMaximum === true ? '<' : '<=';
      return problem('maximum', `must be ${comparison} ${schema.maximum}`, { comparison, limit: schema.maximum });
    }
  }
  if (schema.multipleOf !== undefined) {
    if (!isMultiple(exact, schema.multipleOf)) {
      return problem('multipleOf', `must be multiple of ${schema.multipleOf}`, { multipleOf: schema.multipleOf });
    }
  }
  return undefined;
}

/** The same rewrite for one schema of the kit's own (a fixture's format, a state file's). */
export function withExactNumberSchema<T>(schema: T): T {
  return rewrite(schema, true) as T;
}
