import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareInt64,
  int64Max,
  int64Min,
  isInt64,
  JsonSyntaxError,
  normaliseInt64,
  NumberLiteral,
  parseExactJson,
  parseWithLiterals,
  stringifyJson,
  toInt64,
} from '../../../src/core/json/exact-json.js';
import { caught } from '../../support/caught.js';

describe('parseExactJson', () => {
  it.each([
    ['2^53 - 1', '9007199254740991', 9007199254740991],
    ['-(2^53 - 1)', '-9007199254740991', -9007199254740991],
    ['a 15-digit integer', '123456789012345', 123456789012345],
    ['0', '0', 0],
  ])('reads %s as a number', (_case, text, value) => {
    expect(parseExactJson(text)).toBe(value);
  });

  it.each([
    ['2^53', '9007199254740992', 9007199254740992n],
    ['2^53 + 1', '9007199254740993', 9007199254740993n],
    ['-2^53', '-9007199254740992', -9007199254740992n],
    ['-(2^53 + 1)', '-9007199254740993', -9007199254740993n],
    ['2^63 - 1', '9223372036854775807', 9223372036854775807n],
    ['-2^63', '-9223372036854775808', -9223372036854775808n],
  ])('reads %s exactly, as a bigint', (_case, text, value) => {
    expect(parseExactJson(text)).toBe(value);
  });

  it.each([
    ['2^63, beyond int64', '9223372036854775808', true],
    ['-2^63 - 1, below int64', '-9223372036854775809', true],
    ['a 400-digit integer', '7'.repeat(400), true],
    ['1.0, an integer written as a decimal', '1.0', false],
    ['1e3, an integer written with an exponent', '1e3', false],
    ['-0.0', '-0.0', false],
    ['1e400, beyond a double', '1e400', false],
    ['a decimal longer than a double holds', '0.30000000000000000000001', false],
  ])('keeps %s as the literal it was written as', (_case, text, isInteger) => {
    const value = parseExactJson(text);
    expect(value).toBeInstanceOf(NumberLiteral);
    expect((value as NumberLiteral).text).toBe(text);
    expect((value as NumberLiteral).isInteger).toBe(isInteger);
  });

  it('reads -0 as 0, the one form of that integer', () => {
    expect(Object.is(parseExactJson('-0'), 0)).toBe(true);
  });

  it('refuses a key repeated with another value instead of picking one', () => {
    const error = caught(JsonSyntaxError, () => parseExactJson('{"id":1,"id":2}'), 'a repeated key');
    expect(error.message).toContain("Duplicate key 'id'");
  });

  it('accepts a key repeated with the same value, which loses nothing', () => {
    expect(parseExactJson('{"id":1,"id":1}')).toEqual({ id: 1 });
  });

  it('keeps __proto__ as a plain key of the object, touching no prototype', () => {
    const value = parseExactJson('{"__proto__":{"polluted":1},"a":{"__proto__":[]}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each(['{', '{"a":1,}', "{'a':1}", 'NaN', '01', '1.', '.5', '+1', '[1,2', '"\\x"', ''])(
    'refuses %j with a JsonSyntaxError',
    (text) => {
      expect(() => parseExactJson(text)).toThrow(JsonSyntaxError);
    },
  );

  it('throws a RangeError, not a JsonSyntaxError, for a text nested too deeply to parse', () => {
    expect(() => parseExactJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(RangeError);
  });
});

describe('the fast path of parseExactJson', () => {
  it('reads every JSON text as the exact parser alone does', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.jsonValue().map((value) => JSON.stringify(value, null, 1)),
      fc
        .array(fc.record({ id: fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), n: fc.double() }))
        .map((pets) => stringifyJson(pets)),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(parseExactJson(text)).toEqual(parseWithLiterals(text));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['2^54, which JSON.parse reads exactly but is no safe integer', '[18014398509481984]', [18014398509481984n]],
    ['-0 in a list, which JSON.parse keeps negative', '[-0,1]', [0, 1]],
    ['a decimal that JSON.parse writes back unchanged', '{"n":2.5}', { n: new NumberLiteral('2.5') }],
    ['an integer written with an exponent', '[1e2]', [new NumberLiteral('1e2')]],
  ])('never takes it for %s', (_case, text, value) => {
    expect(parseExactJson(text)).toEqual(value);
    expect(Object.is((parseExactJson(text) as unknown[])[0], -0)).toBe(false);
  });

  it('still refuses a key repeated with another value in a compact text', () => {
    expect(() => parseExactJson('[{"id":1,"status":"sold","status":"available"}]')).toThrow(JsonSyntaxError);
  });

  it.each([
    ['a repeated key in a nested object of a pretty text', '{\n  "a": {\n    "b": 1,\n    "b": 2\n  }\n}'],
    ['a repeated key after a string that holds a quote and a colon', '[{"name":"a \\": b","id":1,"id":2}]'],
    ['a repeated key after a string that ends in backslashes', '[{"name":"a\\\\","id":1,"id":2}]'],
  ])('still refuses %s, which the fast path counts', (_case, text) => {
    expect(() => parseExactJson(text)).toThrow(JsonSyntaxError);
  });

  it.each([
    ['a colon and an escaped quote inside a value', '[{"name":"x\\":","id":1}]'],
    ['a key written twice with the same value', '{"id":1,"id":1}'],
    ['keys in a pretty text', '[\n  { "id": 1, "name": "a" }\n]'],
  ])('reads %s as the exact parser does', (_case, text) => {
    expect(parseExactJson(text)).toEqual(parseWithLiterals(text));
  });

  it('reads a text nested 1,500 deep as the exact parser does', () => {
    // Deeper, whether either parser runs out of stack depends on the stack left and on the JIT, not on the text.
    const text = `${'['.repeat(1500)}${']'.repeat(1500)}`;
    expect(parseExactJson(text)).toEqual(parseWithLiterals(text));
  });
});

describe('stringifyJson', () => {
  it.each([
    '{"id":9007199254740993,"categoryId":-9223372036854775808}',
    '[9223372036854775807,-9007199254740992,9007199254740991]',
    '{"weight":1.0,"big":1e3,"zero":-0.0}',
    '[1e400,99999999999999999999999,0.30000000000000000000001]',
    '{"a":{"b":[{"c":9223372036854775807}]}}',
  ])('writes back what it parsed, digit for digit: %s', (text) => {
    expect(stringifyJson(parseExactJson(text))).toBe(text);
  });

  it('writes plain values as JSON.stringify does', () => {
    const value = { name: 'Zoë "🐶"', list: [1, 1.5, true, null], nothing: undefined };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('writes bigints as their digits', () => {
    expect(stringifyJson({ id: 2n ** 63n - 1n })).toBe('{"id":9223372036854775807}');
  });

  it('never lets JSON.stringify write a NumberLiteral some other way', () => {
    expect(() => JSON.stringify({ weight: new NumberLiteral('1.0') })).toThrow();
  });
});

describe('toInt64', () => {
  it.each([
    ['42', 42],
    ['-42', -42],
    ['-0', 0],
    ['007', 7],
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', 9007199254740992n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['0009223372036854775807', undefined],
  ])('reads %j as %s', (text, value) => {
    expect(toInt64(text)).toBe(value);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '1'.repeat(30), '1.0', '1e3', '+1', ' 1', '', 'abc'])(
    'reads %j as no int64 at all',
    (text) => {
      expect(toInt64(text)).toBeUndefined();
    },
  );
});

describe('isInt64, normaliseInt64 and compareInt64', () => {
  it('takes a value for an Int64 only in its one form', () => {
    expect(isInt64(1)).toBe(true);
    expect(isInt64(9007199254740992n)).toBe(true);
    expect(isInt64(int64Max)).toBe(true);
    expect(isInt64(int64Min)).toBe(true);
    expect(isInt64(1n)).toBe(false);
    expect(isInt64(int64Max + 1n)).toBe(false);
    expect(isInt64(1.5)).toBe(false);
    expect(isInt64(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(isInt64('1')).toBe(false);
  });

  it('turns a safe bigint into the number it equals and keeps any other', () => {
    expect(normaliseInt64(5n)).toBe(5);
    expect(normaliseInt64(-9007199254740991n)).toBe(-9007199254740991);
    expect(normaliseInt64(9007199254740992n)).toBe(9007199254740992n);
  });

  it('orders numbers and bigints exactly', () => {
    expect(
      [9007199254740993n, 1, -9223372036854775808n, 9007199254740991, 9007199254740992n].sort(compareInt64),
    ).toEqual([-9223372036854775808n, 1, 9007199254740991, 9007199254740992n, 9007199254740993n]);
    expect(compareInt64(5, 5)).toBe(0);
  });
});
