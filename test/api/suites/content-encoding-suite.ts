import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../../src/create-mock.js';
import {
  nothingToRun,
  testsFor,
  universalMockOptions,
  type DocumentUnderTest,
  type Subject,
  type Target,
} from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';
import { fetchJson } from '../../support/fetch-json.js';

type Item = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** What the mock in Node inflates (zlib); the universal mock knows no brotli (the Web streams do not). */
const nodeEncodings = 'identity, gzip, x-gzip, deflate, br';
const webEncodings = 'identity, gzip, x-gzip, deflate';

/** A create body sent with a Content-Encoding: inflated before it is read, refused clearly when it cannot be. */
export function contentEncodingSuite(subject: Subject): void {
  const r = subject.resource;
  if (!r.create) return nothingToRun(`the document has no create of ${r.name}`);
  const item = r.newItem(r.text ? { [r.text.name]: 'Zipped' } : {});
  const text = JSON.stringify(item);
  const universal = subject.transport.universal === true;
  const withTarget = async (run: (target: Target) => Promise<void>, scenario?: string) => {
    const target = await subject.start(scenario === undefined ? {} : { scenario });
    try {
      await run(target);
    } finally {
      await target.close();
    }
  };
  const post = (
    target: Target,
    encoding: string,
    body: Uint8Array | string,
    headers: Record<string, string> = jsonAuth,
  ) =>
    request<Item & ErrorBody>(`${target.baseUrl}${r.collectionPath}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Encoding': encoding },
      body,
    });

  describe(`POST /v1${r.collectionPath} with a Content-Encoding`, () => {
    const cases: Array<[string, Buffer]> = [
      ['gzip', gzipSync(text)],
      ['x-gzip', gzipSync(text)],
      ['deflate', deflateSync(text)],
      ...(universal ? [] : [['br', brotliCompressSync(text)] as [string, Buffer]]),
      ['GZIP', gzipSync(text)],
      ['identity', Buffer.from(text)],
      ['deflate, gzip', gzipSync(deflateSync(text))],
    ];
    it.each(cases)('inflates a %s body before reading it', (encoding, body) =>
      withTarget(async (target) => {
        const response = await post(target, encoding, new Uint8Array(body));
        expect(response.status).toBe(201);
        expect(response.body).toEqual({ [r.idField]: response.body[r.idField], ...item });
      }),
    );

    testsFor(subject, { maxInflatedBytes: 1000 })(
      'answers 413 with Retry-After to a body beyond the bytes every body being inflated shares, and gives them back',
      async () => {
        // The budget is shared by every request in flight; one body that alone inflates beyond it shows it is wired in.
        const target = await subject.start({ maxInflatedBytes: 1000 });
        try {
          const large = JSON.stringify({
            ...item,
            ...(r.text ? { [r.text.name]: 'x'.repeat(2000) } : {}),
            pad: 'x'.repeat(2000),
          });
          const refused = await post(target, 'gzip', new Uint8Array(gzipSync(large)));
          expect(refused.status).toBe(413);
          expect(refused.headers.get('retry-after')).toBe('1');
          expect(refused.body).toMatchObject({ code: 'payload_too_large', status: 413 });
          expect(refused.body.message).toMatch(
            /^the request bodies being inflated at once hold \d+ bytes of the 1000 bytes/,
          );
          // What it took is given back: a body within the budget is read, again and again.
          for (let round = 0; round < 3; round++) {
            expect((await post(target, 'gzip', new Uint8Array(gzipSync(text)))).status).toBe(201);
          }
        } finally {
          await target.close();
        }
      },
    );

    it('keeps the inflated body in the journal, not the compressed bytes', () =>
      withTarget(async (target) => {
        expect((await post(target, 'gzip', new Uint8Array(gzipSync(text)))).status).toBe(201);
        const journal = await request<{ requests: Array<{ body?: string }> }>(`${target.origin}/__admin/requests`, {
          headers: auth,
        });
        expect(journal.body.requests.map((entry) => entry.body)).toEqual([text]);
      }));

    it.each(universal ? ['gzip', 'deflate'] : ['gzip', 'deflate', 'br'])(
      'answers 400 invalid_encoding, not 500, when a %s body is not compressed',
      (encoding) =>
        withTarget(async (target) => {
          const response = await post(target, encoding, text);
          expect(response.status).toBe(400);
          expect(response.body).toEqual({
            code: 'invalid_encoding',
            message: `the body is not valid ${encoding} data for its Content-Encoding`,
            status: 400,
          });
        }),
    );

    it('answers 415 naming the encodings it knows for one it does not', () =>
      withTarget(async (target) => {
        const response = await post(target, 'compress', text);
        expect(response.status).toBe(415);
        expect(response.body).toEqual({
          code: 'unsupported_media_type',
          message: `Content-Encoding 'compress' is not supported (supported: ${universal ? webEncodings : nodeEncodings})`,
          status: 415,
        });
      }));

    if (r.text) {
      const textField = r.text.name;
      it('answers 413 to a small body that inflates beyond the limit (a zip bomb), and stores nothing', () =>
        withTarget(async (target) => {
          const bomb = gzipSync(JSON.stringify(r.newItem({ [textField]: ' '.repeat(2 * 1024 * 1024) })));
          expect(bomb.length).toBeLessThan(64 * 1024);
          const response = await post(target, 'gzip', new Uint8Array(bomb));
          expect(response.status).toBe(413);
          expect(response.body).toEqual({
            code: 'payload_too_large',
            message: 'the body inflates beyond the limit of 1048576 bytes',
            status: 413,
          });
          expect((await request(`${target.baseUrl}${r.collectionPath}`, { headers: auth })).text).toBe('[]');
        }, 'empty'));
    }

    it('answers 401, and inflates nothing, for a client without a key', () =>
      withTarget(async (target) => {
        const response = await post(target, 'gzip', 'not gzip', { 'Content-Type': 'application/json' });
        expect(response.status).toBe(401);
      }));
  });
}

/**
 * The universal mock (`createMock`, as a browser runs it: no zlib, the Web
 * streams' DecompressionStream), called through `mock.fetch`.
 */
export function universalContentEncodingSuite(document: DocumentUnderTest): void {
  const r = document.facts.resource(document.scenarioCollection);
  if (!r.create) return nothingToRun(`the document has no create of ${r.name}`);
  const item = r.newItem(r.text ? { [r.text.name]: 'Zipped' } : {});
  const text = JSON.stringify(item);
  const universal = async (bodyLimit?: number) => {
    const mock = createMock({
      ...universalMockOptions(document, {}),
      ...(bodyLimit === undefined ? {} : { bodyLimit }),
    });
    await mock.ready;
    return mock;
  };
  const post = (mock: Awaited<ReturnType<typeof universal>>, encoding: string, body: Uint8Array | string) =>
    fetchJson<Item & ErrorBody>(mock, `/v1${r.collectionPath}`, {
      method: 'POST',
      headers: { ...jsonAuth, 'Content-Encoding': encoding },
      body,
    });

  describe('Content-Encoding in the universal mock (no zlib: the Web streams of a browser)', () => {
    it.each([
      ['gzip', gzipSync(text)],
      ['deflate', deflateSync(text)],
    ])('inflates a %s body with DecompressionStream', async (encoding, body) => {
      const response = await post(await universal(), encoding, new Uint8Array(body));
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ [r.idField]: response.body[r.idField], ...item });
    });

    it('answers 400 invalid_encoding for a gzip body that is not gzip', async () => {
      const response = await post(await universal(), 'gzip', text);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_encoding');
    });

    it('answers 415 to brotli, which DecompressionStream does not know, naming what it does', async () => {
      const response = await post(await universal(), 'br', new Uint8Array(brotliCompressSync(text)));
      expect(response.status).toBe(415);
      expect(response.body.message).toBe(`Content-Encoding 'br' is not supported (supported: ${webEncodings})`);
    });

    if (r.text) {
      const textField = r.text.name;
      it('answers 413 to a gzip body that inflates beyond the limit', async () => {
        const body = gzipSync(JSON.stringify(r.newItem({ [textField]: 'x'.repeat(5000) })));
        const response = await post(await universal(1000), 'gzip', new Uint8Array(body));
        expect(response.status).toBe(413);
        expect(response.body.message).toBe('the body inflates beyond the limit of 1000 bytes');
      });
    }

    if (r.page?.default !== undefined) {
      const size = r.page.default;
      it(`lists the ${r.name} it generated once Faker has loaded`, async () => {
        const response = await fetchJson<unknown[]>(await universal(), `/v1${r.collectionPath}`, { headers: auth });
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(size);
      });
    }
  });
}
