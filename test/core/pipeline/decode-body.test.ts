import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflateWithWebStreams, type Inflate } from '../../../src/core/http/inflate.js';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { decodeBody } from '../../../src/core/pipeline/decode-body.js';

const request = (encoding: string | undefined): PlainRequest => ({
  method: 'POST',
  path: '/v1/pets',
  query: '',
  headers: encoding === undefined ? {} : { 'content-encoding': encoding },
});
const bytes = (text: string) => new TextEncoder().encode(text);

/** An inflater that records what it was asked to undo, and marks the bytes with the encoding's name. */
function recordingInflate(): { inflate: Inflate; calls: Array<[string, string, number]> } {
  const calls: Array<[string, string, number]> = [];
  return {
    calls,
    inflate: async (encoding, input, limit) => {
      const text = new TextDecoder().decode(input);
      calls.push([encoding, text, limit]);
      return bytes(`${text}<${encoding}`);
    },
  };
}

describe('decodeBody', () => {
  it('leaves a body without Content-Encoding as it is', async () => {
    const { inflate, calls } = recordingInflate();
    const body = bytes('{}');
    expect(await decodeBody(request(undefined), body, inflate, 100)).toBe(body);
    expect(calls).toEqual([]);
  });

  it('leaves an empty or missing body alone, whatever its Content-Encoding says', async () => {
    const { inflate, calls } = recordingInflate();
    expect(await decodeBody(request('gzip'), undefined, inflate, 100)).toBeUndefined();
    expect(await decodeBody(request('gzip'), new Uint8Array(0), inflate, 100)).toEqual(new Uint8Array(0));
    expect(calls).toEqual([]);
  });

  it('undoes a list of encodings from the last to the first, in lower case, skipping identity', async () => {
    const { inflate, calls } = recordingInflate();
    const decoded = await decodeBody(request('Deflate, identity, GZIP'), bytes('x'), inflate, 100);
    expect(calls).toEqual([
      ['gzip', 'x', 100],
      ['deflate', 'x<gzip', 100],
    ]);
    expect(new TextDecoder().decode(decoded)).toBe('x<gzip<deflate');
  });

  it('undoes a real gzip body with the Web streams inflater', async () => {
    const decoded = await decodeBody(request('gzip'), new Uint8Array(gzipSync('{"a":1}')), inflateWithWebStreams, 100);
    expect(new TextDecoder().decode(decoded)).toBe('{"a":1}');
  });

  it('passes on the inflater’s refusal of a body that inflates beyond the limit', async () => {
    const body = new Uint8Array(gzipSync('x'.repeat(1000)));
    await expect(decodeBody(request('gzip'), body, inflateWithWebStreams, 100)).rejects.toMatchObject({
      code: 'payload_too_large',
      message: 'the body inflates beyond the limit of 100 bytes',
    });
  });
});
