import { describe, expect, it } from 'vitest';
import { NumberToken, parsePlainJson, writePlainJson } from './support/plain-json.js';

// The reference deployment's own JSON: the suite is only proven against it if it is exact.
describe("the reference deployment's JSON", () => {
  it('keeps every number as written, integers beyond 2^53 and decimals alike', () => {
    const value = parsePlainJson('{"id":9223372036854775807,"a":1.0,"b":-0,"c":1e3,"s":"x\\u00e9\\"","n":[null,true]}');
    expect(value).toEqual({
      id: new NumberToken('9223372036854775807'),
      a: new NumberToken('1.0'),
      b: new NumberToken('-0'),
      c: new NumberToken('1e3'),
      s: 'xé"',
      n: [null, true],
    });
    expect(writePlainJson(value)).toBe('{"id":9223372036854775807,"a":1.0,"b":-0,"c":1e3,"s":"xé\\"","n":[null,true]}');
    expect(writePlainJson({ id: 9223372036854775807n, gone: undefined })).toBe('{"id":9223372036854775807}');
  });

  it('refuses what is not JSON', () => {
    for (const text of ['', '{', '{"a":01}', '{"a":1,}', '[1 2]', '"\u0001"', 'nul', '{"a":1}x']) {
      expect(() => parsePlainJson(text), JSON.stringify(text)).toThrow(SyntaxError);
    }
  });

  it('keeps __proto__ a plain key', () => {
    const value = parsePlainJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
