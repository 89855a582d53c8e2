import { describe, expect, it } from 'vitest';
import { keyVariants } from '../../src/contract/key-variants.js';

describe('keyVariants', () => {
  it('gives the near misses of a key that loose comparisons accept', () => {
    expect(keyVariants('catalogue-secret-3f9a1c').map(({ label, key }) => [label, key])).toEqual([
      ['with the key in another letter case', 'CATALOGUE-SECRET-3F9A1C'],
      ['with the key and one character appended', 'catalogue-secret-3f9a1cx'],
      ['with the key without its last character', 'catalogue-secret-3f9a1'],
      ['with the key with its last character changed', 'catalogue-secret-3f9a1x'],
      ['with a key that shares only its first half with the valid key', 'catalogue-sexxxxxxxxxxx'],
    ]);
  });

  it('differs from the key in every variant, and says which variants a key does not allow', () => {
    for (const token of ['k3y-With-Letters', 'x', '12345678', 'xxxx']) {
      for (const variant of keyVariants(token)) {
        if (variant.key === undefined) expect(variant.cannot, `${token}: ${variant.label}`).not.toBe('');
        else expect(variant.key, `${token}: ${variant.label}`).not.toBe(token);
      }
    }
    expect(keyVariants('12345678')[0]).toMatchObject({ key: undefined, cannot: 'the key has no letters' });
    expect(
      keyVariants('x')
        .filter((v) => v.key === undefined)
        .map((v) => v.cannot),
    ).toEqual(['the key is one character long', 'the key is one character long']);
  });
});
