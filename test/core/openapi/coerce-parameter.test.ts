import { describe, expect, it } from 'vitest';
import { NumberLiteral } from '../../../src/core/json/exact-json.js';
import { coerceParameter } from '../../../src/core/openapi/coerce-parameter.js';
import type { CompiledParameter } from '../../../src/core/openapi/compile-document.js';

function parameter(
  type: string | undefined,
  options: { itemType?: string; explode?: boolean } = {},
): CompiledParameter {
  return {
    name: 'value',
    in: 'query',
    required: false,
    explode: options.explode ?? true,
    shape: { type, itemType: options.itemType, default: undefined },
  };
}

const integer = parameter('integer');

describe('coerceParameter', () => {
  describe('integers', () => {
    it.each([
      ['12', 12],
      ['0', 0],
      ['-7', -7],
      ['9007199254740991', Number.MAX_SAFE_INTEGER],
      ['-9007199254740991', Number.MIN_SAFE_INTEGER],
    ])('reads %j as the integer %d', (text, value) => {
      expect(coerceParameter(integer, [text])).toEqual({ ok: true, value });
    });

    it.each(['12.0', '0x0c', ' 12', '12 ', '1e1', '', 'abc', '+12', '12abc', '1_000', 'Infinity', 'NaN'])(
      'refuses %j as an integer, naming what it got',
      (text) => {
        expect(coerceParameter(integer, [text])).toEqual({
          ok: false,
          problem: `must be an integer, got ${JSON.stringify(text)}`,
        });
      },
    );

    it.each([
      ['9007199254740992', 9007199254740992n],
      ['9007199254740993', 9007199254740993n],
      ['-9007199254740993', -9007199254740993n],
      ['9223372036854775807', 9223372036854775807n],
      ['-9223372036854775808', -9223372036854775808n],
    ])('keeps %s, an integer beyond 2^53-1, exactly as a bigint', (text, value) => {
      expect(coerceParameter(integer, [text])).toEqual({ ok: true, value });
    });

    it('keeps an integer beyond int64 as its literal, for the schema to refuse', () => {
      const text = '123456789012345678901234567890';
      expect(coerceParameter(integer, [text])).toEqual({ ok: true, value: new NumberLiteral(text) });
    });

    it('reads leading zeros as the same integer, as server parsers do', () => {
      expect(coerceParameter(integer, ['007'])).toEqual({ ok: true, value: 7 });
      expect(coerceParameter(integer, ['-0'])).toEqual({ ok: true, value: 0 });
      expect(coerceParameter(integer, ['000000000000000000000000009223372036854775807'])).toEqual({
        ok: true,
        value: 9223372036854775807n,
      });
    });
  });

  describe('numbers', () => {
    const number = parameter('number');

    it.each(['1.5', '-0.25', '1e3', '.5', '1.0000000000000001'])('keeps %j as the literal it was sent as', (text) => {
      expect(coerceParameter(number, [text])).toEqual({ ok: true, value: new NumberLiteral(text) });
    });

    it('reads an integer written for a number as an integer', () => {
      expect(coerceParameter(number, ['12'])).toEqual({ ok: true, value: 12 });
    });

    it.each(['abc', '', ' 1', '0x10', '1,5', 'Infinity'])('refuses %j as a number', (text) => {
      expect(coerceParameter(number, [text])).toEqual({
        ok: false,
        problem: `must be a number, got ${JSON.stringify(text)}`,
      });
    });
  });

  describe('booleans', () => {
    const boolean = parameter('boolean');

    it('reads exactly "true" and "false"', () => {
      expect(coerceParameter(boolean, ['true'])).toEqual({ ok: true, value: true });
      expect(coerceParameter(boolean, ['false'])).toEqual({ ok: true, value: false });
    });

    it.each(['TRUE', 'True', '1', '0', 'yes', ''])('refuses %j as a boolean', (text) => {
      expect(coerceParameter(boolean, [text])).toEqual({
        ok: false,
        problem: `must be true or false, got ${JSON.stringify(text)}`,
      });
    });
  });

  describe('strings', () => {
    it('keeps the text exactly as sent, spaces and all', () => {
      expect(coerceParameter(parameter('string'), [' available '])).toEqual({ ok: true, value: ' available ' });
    });

    it('keeps the text of a parameter whose schema gives no type', () => {
      expect(coerceParameter(parameter(undefined), ['12'])).toEqual({ ok: true, value: '12' });
    });
  });

  describe('repeated values', () => {
    it('refuses a non-array parameter given more than once rather than picking one', () => {
      expect(coerceParameter(integer, ['1', '2'])).toEqual({ ok: false, problem: 'must be given once, got 2 values' });
      expect(coerceParameter(parameter('string'), ['a', 'b', 'c'])).toEqual({
        ok: false,
        problem: 'must be given once, got 3 values',
      });
    });
  });

  describe('arrays', () => {
    it('reads each repetition of an exploded array parameter as one item, typed', () => {
      const exploded = parameter('array', { itemType: 'integer', explode: true });
      expect(coerceParameter(exploded, ['1', '2', '3'])).toEqual({ ok: true, value: [1, 2, 3] });
      expect(coerceParameter(exploded, ['4'])).toEqual({ ok: true, value: [4] });
    });

    it('does not split the values of an exploded array on commas', () => {
      const exploded = parameter('array', { itemType: 'string', explode: true });
      expect(coerceParameter(exploded, ['a,b', 'c'])).toEqual({ ok: true, value: ['a,b', 'c'] });
    });

    it('splits the comma-separated value of a non-exploded array parameter', () => {
      const joined = parameter('array', { itemType: 'integer', explode: false });
      expect(coerceParameter(joined, ['1,2,3'])).toEqual({ ok: true, value: [1, 2, 3] });
      expect(coerceParameter(joined, ['1,2', '3'])).toEqual({ ok: true, value: [1, 2, 3] });
    });

    it('refuses an array whose item is not of the item type, naming the bad item', () => {
      const joined = parameter('array', { itemType: 'integer', explode: false });
      expect(coerceParameter(joined, ['1,x,3'])).toEqual({ ok: false, problem: 'must be an integer, got "x"' });
      expect(coerceParameter(joined, ['1,,3'])).toEqual({ ok: false, problem: 'must be an integer, got ""' });
      const exploded = parameter('array', { itemType: 'integer', explode: true });
      expect(coerceParameter(exploded, ['1', 'x'])).toMatchObject({ ok: false });
    });

    it('types the items of an array of booleans', () => {
      const flags = parameter('array', { itemType: 'boolean', explode: false });
      expect(coerceParameter(flags, ['true,false'])).toEqual({ ok: true, value: [true, false] });
    });
  });
});
