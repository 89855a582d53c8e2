import { describe, expect, it } from 'vitest';
import {
  createFetchHandler,
  pathAndQuery,
  plainFetchRequest,
  toFetchResponse,
  toPlainRequest,
} from '../../src/adapters/fetch-adapter.js';
import { HttpError } from '../../src/core/errors/http-error.js';
import type { BodyReader, PlainRequest, PlainResponse } from '../../src/core/http/plain-http.js';

const encoder = new TextEncoder();

/** A body stream of `chunks` chunks of `size` bytes that counts how many it handed out and whether it was cancelled. */
function countingStream(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) {
        controller.close();
        return;
      }
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const streamed = (stream: ReadableStream<Uint8Array>) =>
  new Request('http://petstore.test/v1/pets', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);

const reader = (request: PlainRequest): BodyReader => {
  if (typeof request.body !== 'function') throw new Error('the request has no body reader');
  return request.body;
};

describe('toPlainRequest', () => {
  it('takes the method in upper case, the path as sent, the query without its ?, and lower-case header names', () => {
    const plain = toPlainRequest(
      new Request('http://petstore.test/v1/pets/%E5%B0%8F?limit=5&status=sold', {
        method: 'get',
        headers: { Authorization: 'Bearer k', 'X-Request-Id': 'r-1' },
      }),
    );
    expect(plain).toEqual({
      method: 'GET',
      path: '/v1/pets/%E5%B0%8F',
      query: 'limit=5&status=sold',
      headers: { authorization: 'Bearer k', 'x-request-id': 'r-1' },
    });
  });

  it.each([
    'http://petstore.test/v1/pets?limit=5#top',
    'http://petstore.test',
    'http://petstore.test/?',
    'HTTPS://petstore.test:8443/v1/pets/a%20b?status=sold?x#f?g',
    'http://[::1]:3000/v1/pets/../pets/./1?',
    'http://petstore.test/v1/pets?#',
    'file:///v1/pets?limit=1',
    'blob:http://petstore.test/v1/pets',
  ])('reads the same path and query from %s as a URL does', (text) => {
    const url = new Request(text).url;
    const parsed = new URL(url);
    expect(pathAndQuery(url)).toEqual({ path: parsed.pathname, query: parsed.search.slice(1) });
  });

  it('gives a request without a body no body, and one with a body a reader', async () => {
    expect(toPlainRequest(new Request('http://petstore.test/v1/pets'))).not.toHaveProperty('body');
    const plain = toPlainRequest(new Request('http://petstore.test/v1/pets', { method: 'POST', body: '{"a":1}' }));
    expect(new TextDecoder().decode(await reader(plain)(100))).toBe('{"a":1}');
  });

  it('reads a body streamed in many chunks whole, in order', async () => {
    const { stream } = countingStream(10, 1000);
    const body = await reader(toPlainRequest(streamed(stream)))(10_000);
    expect(body.length).toBe(10_000);
    expect(body.every((byte) => byte === 0x61)).toBe(true);
  });

  it('stops reading as soon as a body grows beyond the limit, cancels the stream, and refuses it with 413', async () => {
    const { stream, state } = countingStream(1_000_000, 1024);
    const error = await reader(toPlainRequest(streamed(stream)))(10 * 1024).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      code: 'payload_too_large',
      message: 'the body is larger than the limit of 10240 bytes',
    });
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(20);
  });

  it('takes a body exactly as large as the limit', async () => {
    const { stream } = countingStream(4, 256);
    expect((await reader(toPlainRequest(streamed(stream)))(1024)).length).toBe(1024);
  });

  it('answers 400 request_aborted when the body stream breaks off', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"name":'));
        controller.error(new Error('the client went away'));
      },
    });
    await expect(reader(toPlainRequest(streamed(stream)))(100)).rejects.toMatchObject({
      status: 400,
      code: 'request_aborted',
      message: 'the client stopped sending the body',
    });
  });
});

/** The plain request a `Request` built from `fetch`'s arguments gives, its body read whole. */
async function viaRequest(url: string, init?: RequestInit): Promise<PlainRequest> {
  const plain = toPlainRequest(new Request(url, init));
  return typeof plain.body === 'function' ? { ...plain, body: await plain.body(1 << 20) } : plain;
}

describe('plainFetchRequest', () => {
  const key = { authorization: 'Bearer dev-key' };
  it.each<[string, RequestInit | undefined]>([
    ['http://mock.test/v1/pets', undefined],
    ['http://mock.test/v1/pets', { headers: key }],
    ['HTTPS://Mock.Test:8443/v1/pets?limit=5&status=sold', { method: 'get', headers: [['Authorization', 'Bearer k']] }],
    ['http://mock.test', {}],
    ['http://127.0.0.1:3000/v1/pets/%E5%B0%8F?', { headers: { 'X-A': '1', 'x-a': '2' } }],
    [
      'http://mock.test/v1/pets',
      { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{"name":"Rex"}' },
    ],
    ['http://mock.test/v1/pets', { method: 'post', body: 'plain text' }],
    ['http://mock.test/v1/pets/1', { method: 'PATCH', body: new TextEncoder().encode('{}') }],
    ['http://mock.test/v1/pets/1', { method: 'patch', body: new TextEncoder().encode('{}') }],
    ['http://mock.test/v1/pets/1', { method: 'delete' }],
    ['http://mock.test/v1/pets/1', { method: 'PUT', body: new Uint8Array([1, 2, 3, 4]).subarray(1, 3) }],
    [
      'http://mock.test/v1/pets/1',
      { method: 'DELETE', body: new Uint8Array([5, 6]).buffer, signal: new AbortController().signal },
    ],
    ['http://mock.test/v1/pets', { headers: { 'x-empty': '', 'x-inner': 'a \t b', 'x-latin': 'caf\u00e9' } }],
  ])('reads %s with %o as the Request built from them reads', async (url, init) => {
    const plain = plainFetchRequest(url, init);
    expect(plain).toBeDefined();
    expect(plain).toEqual(await viaRequest(url, init));
  });

  it.each<[string, RequestInit | undefined]>([
    ['/v1/pets', undefined],
    ['http://mock.test/v1/pets#top', undefined],
    ['http://mock.test/v1/../v1/pets', undefined],
    ['http://mock.test/v1/%2e%2E/pets', undefined],
    ['http://mock.test/v1/pets?name=a b', undefined],
    ["http://mock.test/v1/pets?name='a'", undefined],
    ['http://mock.test/v1/pets/\u00e9', undefined],
    ['http://mock.test:99999/v1/pets', undefined],
    ['http://1.2.3.4.5/v1/pets', undefined],
    ['http://user:secret@mock.test/v1/pets', undefined],
    ['http://mock.test/v1/pets', { headers: new Headers({ a: '1' }) }],
    ['http://mock.test/v1/pets', { headers: { a: ' padded' } }],
    ['http://mock.test/v1/pets', { headers: { 'bad name': '1' } }],
    ['http://mock.test/v1/pets', { headers: { a: '\u20ac' } }],
    ['http://mock.test/v1/pets', { method: 'TRACE' }],
    ['http://mock.test/v1/pets', { method: 'GET', body: 'x' }],
    ['http://mock.test/v1/pets', { method: 'POST', body: new URLSearchParams('a=1') }],
    ['http://mock.test/v1/pets', { redirect: 'manual' }],
  ])('leaves %s with %o to a Request, which reads or refuses it', (url, init) => {
    expect(plainFetchRequest(url, init)).toBeUndefined();
  });

  it('gives the bytes a copy, so that the caller changing them afterwards changes nothing sent', () => {
    const sent = new TextEncoder().encode('{}');
    const plain = plainFetchRequest('http://mock.test/v1/pets', { method: 'POST', body: sent });
    sent.fill(0x20);
    expect(new TextDecoder().decode(plain?.body as Uint8Array)).toBe('{}');
  });
});

describe('toFetchResponse', () => {
  it('sends a header given as a list as the header repeated, so that cookies stay apart', () => {
    const response = toFetchResponse({
      status: 200,
      headers: { 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'], 'content-type': 'application/json' },
    });
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('carries the status, the headers and the body bytes', async () => {
    const response = toFetchResponse({
      status: 201,
      headers: { 'content-type': 'application/json', 'content-length': '2', 'x-request-id': 'r-1' },
      body: encoder.encode('{}'),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(await response.text()).toBe('{}');
  });

  it('gives the body as a byte stream that a BYOB reader reads, as a Response made from bytes gives it', async () => {
    const response = toFetchResponse({ status: 200, headers: {}, body: encoder.encode('[1,2]') });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader({ mode: 'byob' });
    const read = await reader.read(new Uint8Array(16));
    expect(new TextDecoder().decode(read.value)).toBe('[1,2]');
    expect((await reader.read(new Uint8Array(16))).done).toBe(true);
  });

  it('leaves the bytes of the core whole once the body is read, whether a view into a larger buffer or kept for the next answer', async () => {
    const shared = encoder.encode('xx[1,2]yy');
    const body = shared.subarray(2, 7);
    for (let round = 0; round < 2; round++) {
      const response = toFetchResponse({ status: 200, headers: {}, body });
      expect(await response.text()).toBe('[1,2]');
    }
    expect(new TextDecoder().decode(shared)).toBe('xx[1,2]yy');
  });

  it('hands the reader a copy, so that a reader writing into what it read changes no later answer', async () => {
    const body = encoder.encode('[]');
    const first = toFetchResponse({ status: 200, headers: {}, body });
    const chunk = (await (first.body as ReadableStream<Uint8Array>).getReader().read()).value as Uint8Array;
    chunk.fill(0x20);
    expect(await toFetchResponse({ status: 200, headers: {}, body }).text()).toBe('[]');
  });

  it('sends no body for a response without one, such as a 204', async () => {
    const response = toFetchResponse({ status: 204, headers: { 'content-length': '0' } });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it.each(['connection_reset', 'empty_response', 'malformed_response', 'timeout'] as const)(
    'throws a TypeError, as fetch does for a broken connection, for the injected fault %s',
    (fault) => {
      expect(() => toFetchResponse({ status: 200, headers: {}, fault })).toThrow(
        new TypeError(`fetch failed (${fault}, injected by the mock)`),
      );
    },
  );
});

describe('createFetchHandler', () => {
  it('hands the core a plain request and gives back its plain response as a Response', async () => {
    const seen: PlainRequest[] = [];
    const fetchFromMock = createFetchHandler(async (request) => {
      seen.push(request);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: encoder.encode('[]') };
    });
    const response = await fetchFromMock(new Request('http://petstore.test/v1/pets?limit=1'));
    expect(await response.text()).toBe('[]');
    expect(seen.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: 'GET', path: '/v1/pets', query: 'limit=1' },
    ]);
  });

  it('takes a URL and an init as fetch does, read without a Request where they are plain, and through one otherwise', async () => {
    const seen: PlainRequest[] = [];
    const fetchFromMock = createFetchHandler(async (request) => {
      seen.push(request);
      return { status: 204, headers: {} };
    });
    await fetchFromMock('http://petstore.test/v1/pets?limit=1', { headers: { Authorization: 'Bearer k' } });
    await fetchFromMock(new URL('http://petstore.test/v1/pets/1'), { method: 'DELETE' });
    await fetchFromMock('http://petstore.test/v1/pets#top', { headers: new Headers({ 'X-A': '1' }) });
    await fetchFromMock(new Request('http://petstore.test/v1/pets', { method: 'POST' }), { method: 'PUT' });
    expect(seen.map(({ method, path, query, headers }) => ({ method, path, query, headers }))).toEqual([
      { method: 'GET', path: '/v1/pets', query: 'limit=1', headers: { authorization: 'Bearer k' } },
      { method: 'DELETE', path: '/v1/pets/1', query: '', headers: {} },
      { method: 'GET', path: '/v1/pets', query: '', headers: { 'x-a': '1' } },
      { method: 'PUT', path: '/v1/pets', query: '', headers: {} },
    ]);
  });

  it.each<[string, RequestInit | undefined]>([
    ['not a url', undefined],
    ['/v1/pets', undefined],
    ['http://mock.test:99999/v1/pets', undefined],
    ['http://user:secret@mock.test/v1/pets', undefined],
    ['http://mock.test/v1/pets', { method: 'GET', body: 'x' }],
    ['http://mock.test/v1/pets', { headers: { a: '\u20ac' } }],
  ])('rejects %s with %o with the TypeError fetch gives, without asking the core', async (url, init) => {
    const fetchFromMock = createFetchHandler(async () => {
      throw new Error('the core was asked');
    });
    await expect(fetchFromMock(url, init)).rejects.toThrow(TypeError);
  });

  it('rejects with a TypeError when the core answers with a fault', async () => {
    const fault: PlainResponse = { status: 200, headers: {}, fault: 'connection_reset' };
    const fetchFromMock = createFetchHandler(async () => fault);
    await expect(fetchFromMock(new Request('http://petstore.test/v1/pets'))).rejects.toThrow(TypeError);
  });
});
