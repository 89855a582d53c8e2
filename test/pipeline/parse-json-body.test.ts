import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors/http-error.js';
import { parseJsonBody } from '../../src/core/pipeline/parse-json-body.js';
import { caught } from '../support/caught.js';

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
  it('parses a valid JSON body into plain values', () => {
    const value = parseText('{"name":"Bella","categoryId":1,"status":"available","tags":["a",2,true,null],"w":1.5}');
    expect(value).toEqual({ name: 'Bella', categoryId: 1, status: 'available', tags: ['a', 2, true, null], w: 1.5 });
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
    ['an integer beyond 2^53', '{"categoryId":9007199254740993}', 'categoryId', '9007199254740993'],
    ['2^53 itself', '{"categoryId":9007199254740992}', 'categoryId', '9007199254740992'],
    ['a negative integer beyond -(2^53-1)', '{"id":-9007199254740993}', 'id', '-9007199254740993'],
    ['a number too large for a double', '{"weight":1e400}', 'weight', '1e400'],
    ['a decimal with more digits than a double holds', '{"weight":1.0000000000000001}', 'weight', '1.0000000000000001'],
    ['a nested value', '{"b":[0,1,{"c":9007199254740993}]}', 'b[2].c', '9007199254740993'],
  ])('refuses %s with 400 imprecise_number naming the field', (_label, text, field, shown) => {
    const error = refusal(text);
    expect(error.status).toBe(400);
    expect(error.code).toBe('imprecise_number');
    expect(error.message).toMatch(new RegExp(`^body field '${field.replace(/[[\].]/g, '\\$&')}' is ${shown}, `));
    expect(error.details).toEqual([expect.objectContaining({ location: 'body', field })]);
  });

  it('lists every imprecise number in the details, naming the first in the message', () => {
    const error = refusal('{"a":9007199254740993,"b":[1e400]}');
    expect(error.message).toMatch(/^body field 'a' /);
    expect(error.details?.map((detail) => detail.field)).toEqual(['a', 'b[0]']);
  });

  it('names the root when the whole body is an imprecise number', () => {
    expect(refusal('9007199254740993').message).toMatch(/^body field '\(root\)' is 9007199254740993/);
  });

  it('shortens a very long number in the message', () => {
    const digits = '1'.repeat(100);
    const error = refusal(`{"n":${digits}}`);
    expect(error.message).toContain(`${'1'.repeat(40)}…`);
    expect(error.message).not.toContain('1'.repeat(41));
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
