import { describe, expect, it } from 'vitest';
import { encodeText } from '../../../src/core/json/encode-text.js';

const encoder = new TextEncoder();

describe('encodeText', () => {
  it('writes the same UTF-8 bytes as TextEncoder, for one-, two-, three- and four-byte characters', () => {
    for (const text of ['', '{"name":"Rex"}', 'Zoë', '犬の名前', '🐶 and 🐱', 'a lone \ud83d surrogate']) {
      expect(encodeText(text)).toEqual(encoder.encode(text));
    }
  });

  it('gives every text bytes of its own: a later text never changes an earlier one’s', () => {
    const first = encodeText('{"id":9223372036854775807}');
    const second = encodeText('{"id":1,"name":"🐶🐶🐶🐶🐶🐶🐶🐶"}');
    expect(new TextDecoder().decode(first)).toBe('{"id":9223372036854775807}');
    expect(new TextDecoder().decode(second)).toBe('{"id":1,"name":"🐶🐶🐶🐶🐶🐶🐶🐶"}');
    expect(first.buffer).not.toBe(second.buffer);
  });

  it('writes a text longer than its shared buffer holds, byte for byte', () => {
    const long = `${'é'.repeat(20_000)}🐶${'x'.repeat(30_000)}`;
    const bytes = encodeText(long);
    expect(bytes.length).toBe(40_000 + 4 + 30_000);
    expect(bytes).toEqual(encoder.encode(long));
    // A text of every length near the buffer's bound, all of three-byte characters, fits whole.
    for (const length of [16_383, 16_384, 16_385]) expect(encodeText('犬'.repeat(length)).length).toBe(3 * length);
  });
});
