import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflateWithZlib } from '../../src/node/inflate-node.js';

const text = '{"name":"Zipped","categoryId":1}';
const decoded = async (promise: Promise<Uint8Array>) => Buffer.from(await promise).toString('utf8');

describe('inflateWithZlib', () => {
  it.each([
    ['gzip', gzipSync(text)],
    ['x-gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['br', brotliCompressSync(text)],
  ])('undoes %s', async (encoding, bytes) => {
    expect(await decoded(inflateWithZlib(encoding, bytes, 1000))).toBe(text);
  });

  it.each(['gzip', 'deflate', 'br'])('answers 400 invalid_encoding to bytes that are not %s', async (encoding) => {
    await expect(inflateWithZlib(encoding, Buffer.from(text), 1000)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_encoding',
      message: `the body is not valid ${encoding} data for its Content-Encoding`,
    });
  });

  it('answers 413 to a body that inflates beyond the limit, never producing more than the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    await expect(inflateWithZlib('gzip', bomb, 1024 * 1024)).rejects.toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: 'the body inflates beyond the limit of 1048576 bytes',
    });
  });

  it('takes a body that inflates to exactly the limit', async () => {
    expect((await inflateWithZlib('gzip', gzipSync(Buffer.alloc(1000)), 1000)).length).toBe(1000);
  });

  it('answers 415 naming the encodings it knows for one it does not', async () => {
    await expect(inflateWithZlib('zstd', Buffer.from(text), 1000)).rejects.toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
      message: "Content-Encoding 'zstd' is not supported (supported: identity, gzip, x-gzip, deflate, br)",
    });
  });
});
