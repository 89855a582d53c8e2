import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMock as createUniversalMock } from '../../src/create-mock.js';
import type { Mock } from '../../src/index.js';
import { auth, createTestMock, jsonAuth, testKey } from '../support/create-test-mock.js';
import { fetchJson } from '../support/fetch-json.js';

const pet = '{"name":"Zipped","categoryId":1}';

const post = (mock: Mock, encoding: string, body: Uint8Array | string, headers: Record<string, string> = jsonAuth) =>
  fetchJson<{ code: string; message: string; status: number; name?: string }>(mock, '/v1/pets', {
    method: 'POST',
    headers: { ...headers, 'Content-Encoding': encoding },
    body,
  });

describe('POST /v1/pets with a Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync(pet)],
    ['x-gzip', gzipSync(pet)],
    ['deflate', deflateSync(pet)],
    ['br', brotliCompressSync(pet)],
    ['GZIP', gzipSync(pet)],
    ['identity', Buffer.from(pet)],
    ['deflate, gzip', gzipSync(deflateSync(pet))],
  ])('inflates a %s body before reading it', async (encoding, body) => {
    const response = await post(createTestMock(), encoding, new Uint8Array(body));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Zipped', categoryId: 1 });
  });

  it('keeps the inflated body in the journal, not the compressed bytes', async () => {
    const mock = createTestMock();
    await post(mock, 'gzip', new Uint8Array(gzipSync(pet)));
    expect(mock.journal.list().map((entry) => entry.body)).toEqual([pet]);
  });

  it.each(['gzip', 'deflate', 'br'])(
    'answers 400 invalid_encoding, not 500, when a %s body is not compressed',
    async (encoding) => {
      const response = await post(createTestMock(), encoding, pet);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'invalid_encoding',
        message: `the body is not valid ${encoding} data for its Content-Encoding`,
        status: 400,
      });
    },
  );

  it('answers 413 with Retry-After to a body beyond the bytes every body being inflated shares, and gives them back', async () => {
    // The budget is shared by every request in flight; one body that alone inflates beyond it shows it is wired in.
    const mock = createTestMock({ maxInflatedBytes: 1000 });
    const large = `{"name":"${'x'.repeat(2000)}","categoryId":1}`;
    const refused = await post(mock, 'gzip', new Uint8Array(gzipSync(large)));
    expect(refused.status).toBe(413);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(refused.body.message).toMatch(/^the request bodies being inflated at once hold \d+ bytes of the 1000 bytes/);
    // What it took is given back: a body within the budget is read, again and again.
    for (let round = 0; round < 3; round++) {
      expect((await post(mock, 'gzip', new Uint8Array(gzipSync(pet)))).status).toBe(201);
    }
  });

  it('answers 415 naming the encodings it knows for one it does not', async () => {
    const response = await post(createTestMock(), 'compress', pet);
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      code: 'unsupported_media_type',
      message: "Content-Encoding 'compress' is not supported (supported: identity, gzip, x-gzip, deflate, br)",
      status: 415,
    });
  });

  it('answers 413 to a small body that inflates beyond the limit (a zip bomb), and stores nothing', async () => {
    const mock = createTestMock({ scenario: 'empty' });
    const bomb = gzipSync(`{"name":"${' '.repeat(2 * 1024 * 1024)}","categoryId":1}`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const response = await post(mock, 'gzip', new Uint8Array(bomb));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      code: 'payload_too_large',
      message: 'the body inflates beyond the limit of 1048576 bytes',
      status: 413,
    });
    expect(mock.store.size).toBe(0);
  });

  it('answers 401, and inflates nothing, for a client without a key', async () => {
    const response = await post(createTestMock(), 'gzip', 'not gzip', { 'Content-Type': 'application/json' });
    expect(response.status).toBe(401);
  });
});

describe('Content-Encoding in the universal mock (no zlib: the Web streams of a browser)', () => {
  const universal = async () => {
    const mock = createUniversalMock({ keys: [testKey] });
    await mock.ready;
    return mock;
  };

  it.each([
    ['gzip', gzipSync(pet)],
    ['deflate', deflateSync(pet)],
  ])('inflates a %s body with DecompressionStream', async (encoding, body) => {
    const response = await post(await universal(), encoding, new Uint8Array(body));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Zipped' });
  });

  it('answers 400 invalid_encoding for a gzip body that is not gzip', async () => {
    const response = await post(await universal(), 'gzip', pet);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_encoding');
  });

  it('answers 415 to brotli, which DecompressionStream does not know, naming what it does', async () => {
    const response = await post(await universal(), 'br', new Uint8Array(brotliCompressSync(pet)));
    expect(response.status).toBe(415);
    expect(response.body.message).toBe(
      "Content-Encoding 'br' is not supported (supported: identity, gzip, x-gzip, deflate)",
    );
  });

  it('answers 413 to a gzip body that inflates beyond the limit', async () => {
    const mock = createUniversalMock({ keys: [testKey], bodyLimit: 1000 });
    await mock.ready;
    const response = await post(
      mock,
      'gzip',
      new Uint8Array(gzipSync(`{"name":"${'x'.repeat(5000)}","categoryId":1}`)),
    );
    expect(response.status).toBe(413);
    expect(response.body.message).toBe('the body inflates beyond the limit of 1000 bytes');
  });

  it('lists the pets it generated once Faker has loaded', async () => {
    const response = await fetchJson<unknown[]>(await universal(), '/v1/pets', { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(20);
  });
});
