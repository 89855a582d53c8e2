import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { NumberLiteral } from '../../../src/core/json/exact-json.js';
import { parseJsonBody } from '../../../src/core/openapi/parse-json-body.js';
import { caught } from '../../support/caught.js';

const parseText = (text: string): unknown => parseJsonBody(Buffer.from(text, 'utf8'));

/** The HttpError parsing the bytes throws. */
function refusal(bytes: Buffer | string): HttpError {
  return caught(
    HttpError,
    () => parseJsonBody(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes),
    'the body',
  );
}

describe('parseJsonBody', () => {
  it('parses a valid JSON body into plain values, decimals kept as written', () => {
    const value = parseText('{"name":"Bella","categoryId":1,"status":"available","tags":["a",2,true,null],"w":1.5}');
    expect(value).toEqual({
      name: 'Bella',
      categoryId: 1,
      status: 'available',
      tags: ['a', 2, true, null],
      w: new NumberLiteral('1.5'),
    });
    expect(typeof (value as { categoryId: unknown }).categoryId).toBe('number');
  });

  it('parses JSON values other than objects', () => {
    expect(parseText('[1,2]')).toEqual([1, 2]);
    expect(parseText('"text"')).toBe('text');
    expect(parseText('null')).toBeNull();
    expect(parseText(' 42 ')).toBe(42);
  });

  it('keeps non-ASCII text intact and skips a UTF-8 byte order mark', () => {
    expect(parseText('{"name":"Zoë 小白 🐶"}')).toEqual({ name: 'Zoë 小白 🐶' });
    expect(parseJsonBody(Buffer.from('\uFEFF{"a":1}', 'utf8'))).toEqual({ a: 1 });
  });

  it('keeps integers up to 2^53-1 and -(2^53-1) exactly', () => {
    expect(parseText('{"a":9007199254740991,"b":-9007199254740991}')).toEqual({
      a: Number.MAX_SAFE_INTEGER,
      b: Number.MIN_SAFE_INTEGER,
    });
  });

  it('refuses invalid UTF-8 with 400 invalid_json', () => {
    const error = refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_json');
    expect(error.message).toBe('the body is not valid UTF-8');
  });

  it.each(['{"name":', '{name: "Bella"}', "{'a':1}", '{"a":1,}', '', 'NaN', '{"a":01}'])(
    'refuses the syntax error %j with 400 invalid_json',
    (text) => {
      const error = refusal(text);
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_json');
      expect(error.message).toMatch(/^the body is not valid JSON: /);
    },
  );

  it('refuses a key given twice with different values rather than keeping one', () => {
    const error = refusal('{"categoryId":1,"categoryId":2}');
    expect(error.code).toBe('invalid_json');
    expect(error.message).toContain("Duplicate key 'categoryId'");
  });

  it.each([
    ['2^53 itself', '9007199254740992', 9007199254740992n],
    ['2^53 + 1', '9007199254740993', 9007199254740993n],
    ['-(2^53 + 1)', '-9007199254740993', -9007199254740993n],
    ['2^63 - 1', '9223372036854775807', 9223372036854775807n],
    ['-2^63', '-9223372036854775808', -9223372036854775808n],
  ])('keeps %s exactly, as a bigint', (_label, literal, expected) => {
    expect(parseText(`{"categoryId":${literal}}`)).toEqual({ categoryId: expected });
  });

  it.each([
    ['2^63, beyond int64', '9223372036854775808'],
    ['a decimal written for an integer', '1.0'],
    ['an exponent', '1e3'],
    ['a number too large for a double', '1e400'],
    ['more digits than a double holds', '1.0000000000000001'],
  ])('keeps %s as the literal it was sent as, for the schema to judge', (_label, literal) => {
    expect(parseText(`{"n":${literal}}`)).toEqual({ n: new NumberLiteral(literal) });
  });

  it('reads -0 as 0', () => {
    expect(parseText('{"n":-0}')).toEqual({ n: 0 });
    expect(Object.is((parseText('{"n":-0}') as { n: number }).n, 0)).toBe(true);
  });

  it('keeps a "__proto__" key as an own data property without changing any prototype', () => {
    const value = parseText('{"__proto__":{"polluted":true},"name":"Bella"}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'name']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('keeps a nested "__proto__" key as data too', () => {
    const value = parseText('{"a":{"__proto__":{"isAdmin":true}}}') as { a: Record<string, unknown> };
    expect(Object.keys(value.a)).toEqual(['__proto__']);
    expect((value.a as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});
