import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { normaliseInt64, NumberLiteral } from '../../core/json/exact-json.js';
import type { CompiledDocument } from '../../core/openapi/compile-document.js';
import { resolveSchema } from './document-facts.js';
import { integerRange } from './schema-probes.js';

/** A request body and, for an invalid one, what makes it invalid. */
export interface GeneratedBody {
  body: unknown;
  why: string;
}

export interface PropertyFacts {
  name: string;
  schema: OpenAPIV3.SchemaObject;
  required: boolean;
}

function propertiesOf(compiled: CompiledDocument, schema: OpenAPIV3.SchemaObject): PropertyFacts[] {
  if (schema.type !== 'object' || !schema.properties)
    throw new Error('the request body schema must be an object with properties');
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, raw]) => ({
    name,
    schema: resolveSchema(compiled, raw),
    required: required.has(name),
  }));
}

/**
 * Words of names as real data has them: other scripts, accents (precomposed
 * and as combining marks, which must come back as sent), emoji with joiners,
 * punctuation; what a deployment that only ever met ASCII gets wrong.
 */
export const realNameWords = [
  'Tom',
  'Füchslein',
  'Zoë',
  'Björn',
  'Ñandú',
  'Zoe\u0308',
  'Cafe\u0301',
  'Барсик',
  'Μπίλι',
  '小白',
  'ポチ',
  '바둑이',
  'قطة',
  'חתול',
  'मोती',
  '🦊',
  '🐈\u200d⬛',
  '👩\u200d👩\u200d👧',
  "O'Malley",
  'Tom & Jerry',
];

/**
 * The text of `realText` before its prefix, made once: fast-check's string arbitraries take milliseconds to
 * build (their pattern and slices are worked out then), a generator is a value that draws the same from the
 * same seed wherever it is used, and a run (or a batch of runs) builds body generators for every session.
 */
let realTextCore: fc.Arbitrary<string> | undefined;

/**
 * A free text as real data has it, after the name prefix: plain ASCII at
 * times, words of other scripts, combining marks and emoji, or any printable
 * graphemes; now and then with spaces at its end (never to be trimmed).
 */
function realText(prefix: string): fc.Arbitrary<string> {
  realTextCore ??= fc.oneof(
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]{1,10}$/) },
    {
      weight: 3,
      arbitrary: fc.array(fc.constantFrom(...realNameWords), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  );
  return fc.tuple(realTextCore, fc.constantFrom('', '', '', ' ', '  ')).map(([text, end]) => `${prefix}${text}${end}`);
}

/** Valid values for one property schema; free strings start with the name prefix and look like real data. */
function validValue(schema: OpenAPIV3.SchemaObject, prefix: string): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return realText(prefix);
    case 'integer': {
      // Small values and the whole range the schema allows (all of int64 for an int64), exactly.
      const { min, max } = integerRange(schema);
      const small = fc.integer({ min: schema.minimum ?? 1, max: schema.maximum ?? 1_000_000 });
      const whole = fc.bigInt({ min: min ?? -(2n ** 63n), max: max ?? 2n ** 63n - 1n }).map(normaliseInt64);
      return fc.oneof(small, whole);
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(`cannot generate values of type '${String(schema.type)}'`);
  }
}

/** Values that have the wrong JSON type (or a value outside the enum) for a property schema. */
function wrongValues(schema: OpenAPIV3.SchemaObject): Array<{ value: unknown; what: string }> {
  const candidates: Array<{ value: unknown; what: string; type: string }> = [
    { value: '7', what: 'a numeric string', type: 'string' },
    { value: 1.5, what: 'a fraction', type: 'number' },
    { value: new NumberLiteral('7.0'), what: 'a whole number written as a decimal (7.0)', type: 'number' },
    { value: 7, what: 'a number', type: 'integer' },
    { value: true, what: 'a boolean', type: 'boolean' },
    { value: null, what: 'null', type: 'null' },
    { value: [], what: 'an array', type: 'array' },
    { value: {}, what: 'an object', type: 'object' },
  ];
  const allowed = new Set([schema.type === 'number' ? ['number', 'integer'] : [schema.type]].flat());
  const wrong = candidates.filter((c) => !allowed.has(c.type)).map(({ value, what }) => ({ value, what }));
  if (schema.enum) wrong.push({ value: 'not-an-allowed-value', what: 'a value outside its enum' });
  return wrong;
}

/** Ids of existing items a reference field draws from, by field (asked again at every draw: the run learns more). */
export type ReferencePools = ReadonlyMap<string, () => readonly unknown[]>;

/** A reference field's values: an item the run showed exists, or, while it knows none, any valid value. */
function referenceValue(schema: OpenAPIV3.SchemaObject, prefix: string, pool: () => readonly unknown[]) {
  const anyValue = validValue(schema, prefix);
  return fc.constant(null).chain(() => {
    const ids = pool();
    return ids.length > 0 ? fc.constantFrom(...ids) : anyValue;
  });
}

function objectArbitrary(
  properties: PropertyFacts[],
  prefix: string,
  references: ReferencePools,
): fc.Arbitrary<Record<string, unknown>> {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of properties) {
    const pool = references.get(p.name);
    record[p.name] = pool ? referenceValue(p.schema, prefix, pool) : validValue(p.schema, prefix);
  }
  const requiredKeys = properties.filter((p) => p.required).map((p) => p.name);
  return fc.record(record, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/**
 * Generators for a request body, derived from its schema: valid bodies, and
 * invalid ones made by dropping a required property, giving a property a wrong
 * type or value, or sending a non-object. The compiled validator is the oracle:
 * every body is re-checked, so a generator bug cannot mislabel a body.
 */
export function createBodyGenerators(
  compiled: CompiledDocument,
  schema: OpenAPIV3.SchemaObject,
  validate: ValidateFunction,
  prefix: string,
  /** The fields that refer to items of a collection (`categoryId`), and where their existing ids come from. */
  references: ReferencePools = new Map(),
) {
  const properties = propertiesOf(compiled, schema);
  const referring: ReferencePools = new Map(
    [...references].filter(([field]) => properties.some((property) => property.name === field)),
  );
  const valid = objectArbitrary(properties, prefix, referring);
  const required = properties.filter((p) => p.required);

  const mutations: Array<fc.Arbitrary<GeneratedBody>> = [];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(fc.constantFrom(...required), valid).map(([p, body]) => {
        const { [p.name]: _dropped, ...rest } = body;
        return { body: rest, why: `without the required '${p.name}'` };
      }),
    );
  }
  for (const p of properties) {
    const wrong = wrongValues(p.schema);
    mutations.push(
      fc.tuple(fc.constantFrom(...wrong), valid).map(([w, body]) => ({
        body: { ...body, [p.name]: w.value },
        why: `with '${p.name}' as ${w.what}`,
      })),
    );
  }
  mutations.push(
    fc.constantFrom<GeneratedBody>(
      { body: [], why: 'an array instead of an object' },
      { body: 'text', why: 'a string instead of an object' },
      { body: 42, why: 'a number instead of an object' },
    ),
  );
  const invalid = fc.oneof(...mutations).filter((generated) => !validate(generated.body));

  const minimal = objectArbitrary(required, prefix, referring);

  return {
    properties,
    /** The fields that refer to items of a collection, and the ids of existing ones (see `ReferencePools`). */
    references: referring,
    valid: valid.filter((body) => validate(body)),
    /** Valid bodies with the required properties only. */
    minimal: minimal.filter((body) => validate(body)),
    invalid,
    /** One body per documented rule: each required property missing, each property with each wrong type. */
    everyRule(base: Record<string, unknown>): GeneratedBody[] {
      const bodies: GeneratedBody[] = [];
      for (const p of required) {
        const { [p.name]: _dropped, ...rest } = base;
        bodies.push({ body: rest, why: `without the required '${p.name}'` });
      }
      for (const p of properties) {
        for (const w of wrongValues(p.schema))
          bodies.push({ body: { ...base, [p.name]: w.value }, why: `with '${p.name}' as ${w.what}` });
      }
      return bodies.filter((generated) => !validate(generated.body));
    },
  };
}

export type BodyGenerators = ReturnType<typeof createBodyGenerators>;

/** A reproducible batch from an arbitrary. */
export function sampleWithSeed<T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return fc.sample(arbitrary, { seed, numRuns: count });
}

/** The first body of a seeded batch. */
export function oneWithSeed<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  const [first] = sampleWithSeed(arbitrary, seed, 1);
  if (first === undefined) throw new Error('the generator produced nothing');
  return first;
}
