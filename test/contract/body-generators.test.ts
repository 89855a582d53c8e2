import { describe, expect, it } from 'vitest';
import { createBodyGenerators, sampleWithSeed } from '../../src/contract/support/body-generators.js';
import { requestBodySchema } from '../../src/contract/support/document-facts.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const createPet = compiled.byId.get('createPet');
const validate = createPet?.requestBody?.validators.get('application/json');
if (!createPet || !validate) throw new Error('openapi.yaml lost createPet or its body');
const generators = createBodyGenerators(compiled, requestBodySchema(compiled, createPet), validate, 'contract-test-x-');

describe('createBodyGenerators', () => {
  it('generates only bodies that the document rejects, of every kind of mutation', () => {
    const invalid = sampleWithSeed(generators.invalid, 7, 200);
    for (const { body } of invalid) expect(validate(body)).toBe(false);
    const kinds = new Set(invalid.map(({ why }) => why.replace(/'[^']+'/, 'FIELD').replace(/ as .*/, ' as …')));
    expect(kinds).toEqual(
      new Set([
        'without the required FIELD',
        'with FIELD as …',
        'an array instead of an object',
        'a string instead of an object',
        'a number instead of an object',
      ]),
    );
  });

  it('generates only valid bodies, with the name prefix on free text', () => {
    for (const body of sampleWithSeed(generators.valid, 7, 50)) {
      expect(validate(body)).toBe(true);
      expect(body.name).toMatch(/^contract-test-x-/);
    }
  });

  it('draws names as real data has them: other scripts, combining marks, emoji, spaces at the end, and plain ASCII', () => {
    const names = sampleWithSeed(generators.valid, 7, 300).map((body) =>
      String(body.name).slice('contract-test-x-'.length),
    );
    const some = (test: (name: string) => boolean) => names.filter(test).length;
    expect(some((name) => /^[a-z0-9]+$/.test(name))).toBeGreaterThan(0);
    expect(
      some((name) =>
        /[\p{Script=Cyrillic}\p{Script=Han}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Hangul}]/u.test(name),
      ),
    ).toBeGreaterThan(0);
    expect(some((name) => /\p{M}/u.test(name))).toBeGreaterThan(0);
    expect(some((name) => /\p{Extended_Pictographic}/u.test(name))).toBeGreaterThan(0);
    expect(some((name) => name.endsWith(' '))).toBeGreaterThan(0);
    // The same text sent more than once, by design: equal bodies are two items of their own.
    expect(new Set(names).size).toBeLessThan(names.length);
    // Never a lone surrogate: every name is well-formed Unicode, as UTF-8 can carry it.
    for (const name of names)
      expect(name).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('draws integers from the whole int64 range, beyond 2^53 included, exactly', () => {
    const ids = sampleWithSeed(generators.valid, 7, 200).map((body) => body.categoryId);
    expect(ids.some((id) => typeof id === 'bigint')).toBe(true);
    expect(ids.some((id) => typeof id === 'number')).toBe(true);
    for (const id of ids)
      expect(typeof id === 'bigint' ? !Number.isSafeInteger(Number(id)) : Number.isSafeInteger(id)).toBe(true);
  });

  it('gives the same batch for the same seed', () => {
    expect(sampleWithSeed(generators.invalid, 42, 12)).toEqual(sampleWithSeed(generators.invalid, 42, 12));
  });

  it('breaks each documented rule once: each required property missing, each wrong type, a value outside the enum', () => {
    const whys = generators.everyRule({ name: 'contract-test-x-a', categoryId: 1, status: 'sold' }).map((b) => b.why);
    expect(whys).toContain("without the required 'name'");
    expect(whys).toContain("without the required 'categoryId'");
    expect(whys).toContain("with 'categoryId' as a numeric string");
    expect(whys).toContain("with 'categoryId' as a fraction");
    expect(whys).toContain("with 'categoryId' as a whole number written as a decimal (7.0)");
    expect(whys).toContain("with 'name' as a number");
    expect(whys).toContain("with 'status' as a value outside its enum");
  });
});
