import { describe, expect, it } from 'vitest';
import { fillRandomBytes, randomSourceOf } from '../../../src/core/support/fill-random-bytes.js';

describe('the random bytes behind request ids and credential salts', () => {
  it('fills every byte from the runtime, differently each time', () => {
    const first = new Uint8Array(64);
    const second = new Uint8Array(64);
    fillRandomBytes(first);
    fillRandomBytes(second);
    expect(first).not.toEqual(second);
    expect(first.some((byte) => byte !== 0)).toBe(true);
  });

  it("takes Node's randomFillSync when the runtime has node:crypto", () => {
    const filled: string[] = [];
    const fill = randomSourceOf({
      process: {
        getBuiltinModule: (id) => (id === 'node:crypto' ? { randomFillSync: () => filled.push('node') } : undefined),
      },
      crypto: { getRandomValues: () => filled.push('web') },
    });
    fill(new Uint8Array(4));
    expect(filled).toEqual(['node']);
  });

  it('takes Web Crypto in a runtime without node:crypto, as a browser is', () => {
    const filled: string[] = [];
    const fill = randomSourceOf({ crypto: { getRandomValues: () => filled.push('web') } });
    fill(new Uint8Array(4));
    expect(filled).toEqual(['web']);
  });

  it('refuses a runtime with no cryptographic source rather than drawing weak bytes', () => {
    expect(() => randomSourceOf({})).toThrow(/no cryptographic random source/);
  });
});
