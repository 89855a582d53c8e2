import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InflateBudget, inflateWithWebStreams } from '../../src/core/http/inflate.js';
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

  it.each([
    ['zlib', inflateWithZlib],
    ['Web streams', inflateWithWebStreams],
  ])(
    'with %s, stops a body at a budget other bodies hold, holding no more of it, until they give theirs back',
    async (_name, inflate) => {
      const budget = new InflateBudget(1024 * 1024);
      const first = budget.share();
      // The first body holds 600 KiB of the 1 MiB while it is being answered.
      expect((await inflate('gzip', gzipSync(Buffer.alloc(600 * 1024)), 1024 * 1024, first.take)).length).toBe(
        600 * 1024,
      );
      expect(budget.held).toBe(600 * 1024);
      const second = budget.share();
      await expect(inflate('gzip', gzipSync(Buffer.alloc(600 * 1024)), 1024 * 1024, second.take)).rejects.toMatchObject(
        {
          status: 413,
          code: 'payload_too_large',
          headers: { 'retry-after': '1' },
          message: expect.stringMatching(/^the request bodies being inflated at once hold \d+ bytes of the 1 MiB/),
        },
      );
      // The refused body held no more than what fitted, and gives that back as its request is answered.
      expect(budget.held).toBeLessThanOrEqual(1024 * 1024);
      second.giveBack();
      expect(budget.held).toBe(600 * 1024);
      first.giveBack();
      expect(budget.held).toBe(0);
      const third = budget.share();
      expect((await inflate('gzip', gzipSync(Buffer.alloc(600 * 1024)), 1024 * 1024, third.take)).length).toBe(
        600 * 1024,
      );
    },
  );

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
