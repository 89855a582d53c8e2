import { describe, expect, it } from 'vitest';
import { parameterSchema, requestBodySchema, resolveSchema } from '../../src/contract/support/document-facts.js';
import {
  decimalLiterals,
  enumNearMisses,
  integerBoundaries,
  integerRange,
  longTextLength,
  powerName,
  textProbes,
} from '../../src/contract/support/schema-probes.js';
import { stringifyJson } from '../../src/core/json/exact-json.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const op = (id: string) => {
  const found = compiled.byId.get(id);
  if (!found) throw new Error(`openapi.yaml lost ${id}`);
  return found;
};
const newPet = requestBodySchema(compiled, op('createPet'));
const categoryId = resolveSchema(compiled, newPet.properties?.categoryId ?? {});
const validate = op('createPet').requestBody?.validators.get('application/json');
if (!validate) throw new Error('openapi.yaml lost the createPet body');
const body = (value: unknown) => ({ name: 'contract-test-x-a', categoryId: value });

describe('integerBoundaries', () => {
  it("derives the int64 boundaries of 'categoryId' from the document, each valid by its validator", () => {
    const { valid, invalid } = integerBoundaries(categoryId);
    expect(valid.map(String)).toEqual([
      '-9223372036854775808',
      '-1',
      '0',
      '2147483647',
      '2147483648',
      '4294967296',
      '9007199254740991',
      '9007199254740993',
      '9223372036854775807',
    ]);
    for (const value of valid) expect(validate(body(value)), String(value)).toBe(true);
    expect(invalid.map(String)).toEqual(['-9223372036854775809', '9223372036854775808']);
    for (const value of invalid) expect(validate(body(value)), String(value)).toBe(false);
  });

  it('keeps the exact form: a number up to 2^53-1, a bigint beyond', () => {
    const { valid } = integerBoundaries(categoryId);
    expect(valid).toContain(9007199254740991);
    expect(valid).toContain(9007199254740993n);
    expect(stringifyJson(body(valid.at(-1)))).toContain('"categoryId":9223372036854775807');
  });

  it("derives 1 and 100 inside, 0 and 101 outside, for the 'limit' parameter", () => {
    const limit = parameterSchema(compiled, op('listPets'), 'limit');
    expect(integerRange(limit)).toEqual({ min: 1n, max: 100n });
    expect(integerBoundaries(limit)).toEqual({ valid: [1, 100], invalid: [0n, 101n] });
  });

  it('honours exclusive bounds and int32', () => {
    expect(integerBoundaries({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10 }).invalid).toEqual([
      0n,
      11n,
    ]);
    expect(integerBoundaries({ type: 'integer', format: 'int32' }).invalid).toEqual([-2147483649n, 2147483648n]);
  });
});

describe('decimalLiterals', () => {
  it('writes a whole number as a decimal or with an exponent, each refused by the validator', () => {
    const literals = decimalLiterals(categoryId);
    expect(literals.map(String)).toEqual(['1.0', '1.00', '1e0', '1E+0', '10e-1', '100E-2']);
    for (const literal of literals) {
      expect(stringifyJson(body(literal))).toContain(`"categoryId":${literal.text}`);
      expect(validate(body(literal)), literal.text).toBe(false);
    }
  });
});

describe('textProbes', () => {
  it('covers non-ASCII scripts, quotes and backslashes, spaces around the text, the empty string and 10 KB, each a valid name', () => {
    const probes = textProbes('contract-test-x-');
    expect(probes.map((p) => p.what)).toEqual([
      'accented Latin',
      'CJK',
      'emoji with joiners and a flag',
      'right-to-left scripts',
      'combining marks (not to be normalised)',
      'quotes and backslashes',
      'leading and trailing spaces (not to be trimmed)',
      'the empty string',
      '10 KB of text',
    ]);
    for (const { text } of probes) expect(validate({ name: text, categoryId: 1 })).toBe(true);
    expect(probes.at(-1)?.text).toHaveLength(longTextLength);
    const combining = probes.find((p) => p.what.startsWith('combining'))?.text;
    expect(combining?.normalize('NFC')).not.toBe(combining);
    const spaced = probes.find((p) => p.what.startsWith('leading'))?.text ?? '';
    expect(spaced.trim()).not.toBe(spaced);
    expect(spaced.trim().startsWith('contract-test-x-')).toBe(true);
    // Every probe but the empty string carries the name prefix, so that a run's pets can be told apart.
    expect(probes.filter((p) => !p.text.includes('contract-test-x-')).map((p) => p.text)).toEqual(['']);
  });
});

describe('enumNearMisses', () => {
  it('gives case variants and near misses of each value, none of them allowed', () => {
    const values = ['available', 'pending', 'sold'];
    const misses = enumNearMisses(values);
    expect(misses.filter((m) => m.what.startsWith("'sold'")).map((m) => m.value)).toEqual([
      'SOLD',
      'Sold',
      'sold ',
      ' sold',
      'sol',
      'solds',
    ]);
    expect(misses).toHaveLength(18);
    for (const { value } of misses) {
      expect(values).not.toContain(value);
      expect(validate({ name: 'contract-test-x-a', categoryId: 1, status: value })).toBe(false);
    }
  });

  it('leaves out a variant that is itself an allowed value', () => {
    expect(enumNearMisses(['a', 'A']).map((m) => m.value)).not.toContain('A');
  });
});

describe('powerName', () => {
  it.each([
    [9007199254740993n, '2^53+1'],
    [9007199254740991, '2^53-1'],
    [-9223372036854775808n, '-2^63'],
    [-9223372036854775809n, '-2^63-1'],
    [2147483648, '2^31'],
    [-1, '-1'],
    [100, '100'],
  ])('names %s as %s', (value, name) => {
    expect(powerName(value)).toBe(name);
  });
});
