import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberLiteral } from '../../../src/core/json/exact-json.js';
import { exactNumberKeywordDefinition } from '../../../src/core/openapi/create-document-ajv.js';
import {
  exactNumberKeyword,
  withExactNumbers,
  withExactNumberSchema,
} from '../../../src/core/openapi/exact-numbers.js';
import { loadAjv } from '../../../src/core/openapi/load-ajv.js';

const ajv = new Ajv({ allErrors: true, strict: true });
ajv.addKeyword(exactNumberKeywordDefinition(loadAjv('the test')));

/** What the rewritten schema says of a value: `ok`, or the first problem's keyword and message. */
function judge(schema: object, value: unknown): string {
  const validate = ajv.compile(withExactNumberSchema(schema));
  if (validate(value)) return 'ok';
  const [error] = validate.errors ?? [];
  return `${error?.keyword}: ${error?.message}`;
}

const literal = (text: string) => new NumberLiteral(text);

describe('the exact-number keyword: types', () => {
  const integer = { type: 'integer' };

  it.each([
    ['a safe integer', 42],
    ['zero', 0],
    ['a bigint beyond 2^53', 9007199254740993n],
    ['an integer literal beyond int64', literal('99999999999999999999')],
  ])('takes %s for an integer', (_case, value) => {
    expect(judge(integer, value)).toBe('ok');
  });

  it.each([
    ['1.5', 1.5, 'type: must be integer'],
    ['the literal 1.0', literal('1.0'), 'type: must be integer (1.0 is written as a decimal)'],
    ['the literal 1e3', literal('1e3'), 'type: must be integer (1e3 is written as a decimal)'],
    ['the literal -0.0', literal('-0.0'), 'type: must be integer (-0.0 is written as a decimal)'],
    [
      'a decimal literal of a thousand digits, shown in 40',
      literal(`1.${'0'.repeat(1000)}`),
      `type: must be integer (1.${'0'.repeat(38)}… is written as a decimal)`,
    ],
    ['a string of digits', '1', 'type: must be integer'],
    ['null', null, 'type: must be integer'],
    ['true', true, 'type: must be integer'],
  ])('refuses %s as an integer', (_case, value, problem) => {
    expect(judge(integer, value)).toBe(problem);
  });

  it('takes any number for a number, decimals and literals included, and nothing else', () => {
    const number = { type: 'number' };
    for (const value of [1, 1.5, 9007199254740993n, literal('1.0'), literal('1e400'), literal('0.1')]) {
      expect(judge(number, value)).toBe('ok');
    }
    expect(judge(number, '1.5')).toBe('type: must be number');
    expect(judge(number, null)).toBe('type: must be number');
  });

  it('takes null only where the schema is nullable', () => {
    expect(judge({ type: 'integer', nullable: true }, null)).toBe('ok');
    expect(judge({ type: 'number', nullable: true }, null)).toBe('ok');
    expect(judge({ type: 'integer', nullable: false }, null)).toBe('type: must be integer');
  });
});

describe('the exact-number keyword: formats', () => {
  it.each([
    [-(2n ** 31n), 'ok'],
    [2n ** 31n - 1n, 'ok'],
    [2n ** 31n, 'format: must be an int32 (from -2147483648 to 2147483647)'],
    [-(2n ** 31n) - 1n, 'format: must be an int32 (from -2147483648 to 2147483647)'],
  ])('holds int32 to its range: %s', (value, verdict) => {
    expect(judge({ type: 'integer', format: 'int32' }, Number(value))).toBe(verdict);
  });

  it.each([
    [-(2n ** 63n), 'ok'],
    [2n ** 63n - 1n, 'ok'],
    [2n ** 63n, 'format: must be an int64 (from -9223372036854775808 to 9223372036854775807)'],
    [-(2n ** 63n) - 1n, 'format: must be an int64 (from -9223372036854775808 to 9223372036854775807)'],
  ])('holds int64 to its whole range, exactly: %s', (value, verdict) => {
    expect(judge({ type: 'integer', format: 'int64' }, value)).toBe(verdict);
  });

  it('refuses an integer literal of any length beyond int64, as an int64 problem, without repeating its digits', () => {
    const int64 = { type: 'integer', format: 'int64' };
    const range = 'format: must be an int64 (from -9223372036854775808 to 9223372036854775807)';
    expect(judge(int64, literal('9'.repeat(30)))).toBe(range);
    expect(judge(int64, literal('9'.repeat(100_000)))).toBe(range);
    expect(judge(int64, literal(`-${'9'.repeat(100_000)}`))).toBe(range);
  });

  it('takes an integer literal too long to read whole for an integer all the same', () => {
    expect(judge({ type: 'integer' }, literal('7'.repeat(100_000)))).toBe('ok');
  });
});

describe('the exact-number keyword: bounds', () => {
  it('holds minimum and maximum inclusive, exactly at both edges', () => {
    const schema = { type: 'integer', minimum: 1, maximum: 100 };
    expect(judge(schema, 1)).toBe('ok');
    expect(judge(schema, 100)).toBe('ok');
    expect(judge(schema, 0)).toBe('minimum: must be >= 1');
    expect(judge(schema, 101)).toBe('maximum: must be <= 100');
    expect(judge(schema, 10n ** 30n)).toBe('maximum: must be <= 100');
  });

  it('holds exclusive bounds (OpenAPI 3.0 booleans) exclusively', () => {
    const schema = { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true };
    expect(judge(schema, 0)).toBe('minimum: must be > 0');
    expect(judge(schema, 1)).toBe('maximum: must be < 1');
    expect(judge(schema, literal('0.5'))).toBe('ok');
  });

  it('compares with bounds beyond 2^53 exactly, as a document read exactly holds them', () => {
    const schema = { type: 'integer', minimum: 9007199254740993n, maximum: 9223372036854775807n };
    expect(judge(schema, 9007199254740992n)).toBe('minimum: must be >= 9007199254740993');
    expect(judge(schema, 9007199254740993n)).toBe('ok');
    expect(judge(schema, 9223372036854775807n)).toBe('ok');
    expect(judge(schema, 9223372036854775808n)).toBe('maximum: must be <= 9223372036854775807');
  });

  it('compares an integer with a fractional bound exactly', () => {
    expect(judge({ type: 'integer', minimum: 0.5 }, 0)).toBe('minimum: must be >= 0.5');
    expect(judge({ type: 'integer', minimum: 0.5 }, 1)).toBe('ok');
    expect(judge({ type: 'integer', maximum: -0.5 }, 0)).toBe('maximum: must be <= -0.5');
    expect(judge({ type: 'integer', maximum: -0.5 }, -1)).toBe('ok');
  });

  it('places an integer literal too long to read whole beyond every bound a schema can state', () => {
    expect(judge({ type: 'integer', maximum: 1.7e308 }, literal('1'.repeat(401)))).toBe('maximum: must be <= 1.7e+308');
    expect(judge({ type: 'integer', minimum: -1.7e308 }, literal(`-${'1'.repeat(401)}`))).toBe(
      'minimum: must be >= -1.7e+308',
    );
    expect(judge({ type: 'integer', minimum: 0 }, literal('1'.repeat(401)))).toBe('ok');
  });

  it('compares a decimal literal with a bound as the double it denotes', () => {
    expect(judge({ type: 'number', maximum: 1.5 }, literal('1.50'))).toBe('ok');
    expect(judge({ type: 'number', maximum: 1.5 }, literal('1.51'))).toBe('maximum: must be <= 1.5');
    expect(judge({ type: 'number', maximum: 1e308 }, literal('1e400'))).toBe('maximum: must be <= 1e+308');
  });
});

describe('the exact-number keyword: multipleOf', () => {
  it('divides integers exactly, beyond 2^53 too', () => {
    const schema = { type: 'integer', multipleOf: 3 };
    expect(judge(schema, 9)).toBe('ok');
    expect(judge(schema, 10)).toBe('multipleOf: must be multiple of 3');
    // 2^63 − 2 is divisible by 3; 2^63 − 1 is not, though both round to the same double.
    expect(judge(schema, 9223372036854775806n)).toBe('ok');
    expect(judge(schema, 9223372036854775807n)).toBe('multipleOf: must be multiple of 3');
  });

  it('takes a multipleOf beyond 2^53 as written in an exact document', () => {
    const schema = { type: 'integer', multipleOf: 9007199254740993n };
    expect(judge(schema, 18014398509481986n)).toBe('ok');
    expect(judge(schema, 9007199254740992n)).toBe('multipleOf: must be multiple of 9007199254740993');
  });

  it('divides an integer literal too long to read whole exactly, digit by digit', () => {
    // 10^500 + 2 is even; 10^500 + 1 leaves 2 when divided by 3; 10^500 - 1 (five hundred nines) is a multiple of 9.
    expect(judge({ type: 'integer', multipleOf: 2 }, literal(`1${'0'.repeat(499)}2`))).toBe('ok');
    expect(judge({ type: 'integer', multipleOf: 3 }, literal(`1${'0'.repeat(499)}1`))).toBe(
      'multipleOf: must be multiple of 3',
    );
    expect(judge({ type: 'integer', multipleOf: 9 }, literal('9'.repeat(500)))).toBe('ok');
  });

  it('divides decimals as doubles', () => {
    expect(judge({ type: 'number', multipleOf: 0.5 }, literal('2.5'))).toBe('ok');
    expect(judge({ type: 'number', multipleOf: 0.5 }, literal('2.25'))).toBe('multipleOf: must be multiple of 0.5');
  });
});

describe('withExactNumbers', () => {
  it('rewrites every integer or number schema of a document into the one keyword, wherever it is nested', () => {
    const document = {
      components: {
        schemas: {
          Pet: {
            allOf: [{ type: 'object', properties: { id: { type: 'integer', format: 'int64' } } }],
          },
          Weights: { type: 'array', items: { type: 'number', minimum: 0 } },
          Counts: { type: 'object', additionalProperties: { type: 'integer' } },
        },
      },
      paths: {
        '/x': { get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }] } },
      },
    };
    expect(withExactNumbers(document)).toEqual({
      components: {
        schemas: {
          Pet: {
            allOf: [
              { type: 'object', properties: { id: { [exactNumberKeyword]: { type: 'integer', format: 'int64' } } } },
            ],
          },
          Weights: { type: 'array', items: { [exactNumberKeyword]: { type: 'number', minimum: 0 } } },
          Counts: { type: 'object', additionalProperties: { [exactNumberKeyword]: { type: 'integer' } } },
        },
      },
      paths: {
        '/x': {
          get: {
            parameters: [
              { name: 'limit', in: 'query', schema: { [exactNumberKeyword]: { type: 'integer', maximum: 100 } } },
            ],
          },
        },
      },
    });
  });

  it('leaves data alone: examples, defaults and enums, and properties that merely are named like keywords', () => {
    const schema = {
      type: 'object',
      example: { type: 'integer', minimum: 1 },
      properties: { type: { type: 'string', enum: ['integer'] }, minimum: { type: 'integer', default: 5 } },
    };
    expect(withExactNumberSchema(schema)).toEqual({
      type: 'object',
      example: { type: 'integer', minimum: 1 },
      properties: {
        type: { type: 'string', enum: ['integer'] },
        minimum: { [exactNumberKeyword]: { type: 'integer' }, default: 5 },
      },
    });
  });

  it('does not change the document it is given', () => {
    const schema = { type: 'integer', minimum: 1 };
    withExactNumberSchema(schema);
    expect(schema).toEqual({ type: 'integer', minimum: 1 });
  });
});

describe('the exact-number keyword on a safe integer', () => {
  it('judges it as the exact path judges the same integer read as a literal, for any bounds', () => {
    const bound = fc.oneof(
      fc.integer({ min: -1000, max: 1000 }),
      fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    );
    const schema = fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        format: fc.constantFrom('int32', 'int64'),
        minimum: bound,
        maximum: bound,
        exclusiveMinimum: fc.boolean(),
        exclusiveMaximum: fc.boolean(),
        multipleOf: fc.integer({ min: 1, max: 12 }),
      },
      { requiredKeys: ['type'] },
    );
    const value = fc.oneof(fc.integer({ min: -1100, max: 1100 }), fc.maxSafeInteger(), fc.constant(-(2 ** 31)));
    fc.assert(
      fc.property(schema, value, (given, data) => {
        expect(judge(given, data)).toBe(judge(given, literal(String(data))));
      }),
      { numRuns: 2000 },
    );
  });
});
