import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpClient, type RawResponse } from '../../src/contract/http-client.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { createContractSession } from '../../src/contract/contract-session.js';
import { defaultPatience } from '../../src/contract/contract-settings.js';
import { createRedactor } from '../../src/core/http/redact-credentials.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

/**
 * A server that answers each request on a connection with the next raw
 * answer of its script (bytes written as they are: any framing, broken or
 * not), and, after an answer marked `close`, closes the connection.
 */
type RawAnswer = { bytes: Buffer | string; close?: boolean; later?: Buffer | string };

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function rawServer(script: RawAnswer[]): Promise<{ baseUrl: string; connections: () => number }> {
  let next = 0;
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      // One answer per request head (the tests send no bodies).
      while (pending.includes('\r\n\r\n')) {
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        const answer = script[next++ % script.length] as RawAnswer;
        socket.write(answer.bytes);
        if (answer.later !== undefined) setTimeout(() => socket.write(answer.later as Buffer | string), 30);
        if (answer.close) socket.end();
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, connections: () => connections };
}

const json = (body: string, length: number = Buffer.byteLength(body), status = '200 OK') =>
  `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${body}`;

const clientOf = (baseUrl: string, timeoutMs = 2_000) => createHttpClient({ baseUrl, token: 'key', timeoutMs });

describe('the contract HTTP client', () => {
  it('reads answers over kept-alive connections, several at once, and decodes gzip', async () => {
    const zipped = gzipSync(Buffer.from('[{"id":1,"name":"Füchslein","categoryId":1}]'));
    const server = await rawServer([
      { bytes: json('[]') },
      {
        bytes: Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${zipped.length}\r\n\r\n`,
          ),
          zipped,
        ]),
      },
    ]);
    const send = clientOf(server.baseUrl);
    const first = await send({ method: 'GET', path: '/pets' });
    const second = await send({ method: 'GET', path: '/pets' });
    expect(first).toMatchObject({ status: 200, text: '[]' });
    expect(first.framing).toBeUndefined();
    expect(second.text).toBe('[{"id":1,"name":"Füchslein","categoryId":1}]');
    expect(second.encoding).toBeUndefined();
    expect(server.connections()).toBe(1);
    const together = await Promise.all([1, 2, 3].map(() => send({ method: 'GET', path: '/pets' })));
    expect(together.map((answer) => answer.status)).toEqual([200, 200, 200]);
  });

  it('says what was wrong, never throwing, when a body runs past the bytes its Content-Length counts', async () => {
    // Characters counted, not bytes: "ü" and "🦊" take more bytes than characters.
    const body = '{"name":"Füchslein 🦊"}';
    const server = await rawServer([{ bytes: json(body, body.length) }]);
    const answer = await clientOf(server.baseUrl)({ method: 'GET', path: '/pets/1' });
    const extra = Buffer.byteLength(body) - body.length;
    expect(answer.status).toBe(200);
    expect(answer.framing).toBe(`${extra} bytes more came after the ${body.length} bytes its Content-Length announced`);
    expect(answer.bytes.length).toBe(body.length);
  });

  it('says so when the connection closes before the bytes its Content-Length announced', async () => {
    const server = await rawServer([{ bytes: json('{"id":1}', 20), close: true }]);
    const answer = await clientOf(server.baseUrl)({ method: 'GET', path: '/pets/1' });
    expect(answer.framing).toBe('the connection closed after 8 bytes of the 20 bytes its Content-Length announced');
  });

  it('says so when the body stops short of its Content-Length and nothing more comes within the timeout', async () => {
    const server = await rawServer([{ bytes: json('{"id":1}', 20) }]);
    const answer = await clientOf(server.baseUrl, 300)({ method: 'GET', path: '/pets/1' });
    expect(answer.framing).toBe(
      'the body stopped after 8 bytes of the 20 bytes its Content-Length announced: nothing more came within 300 ms',
    );
  });

  it('says so for a malformed chunk, a chunked body cut before its last chunk, and a 204 with a body', async () => {
    const chunked = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const malformed = await rawServer([{ bytes: `${chunked}2\r\n[]\r\nzz\r\n` }]);
    expect((await clientOf(malformed.baseUrl)({ method: 'GET', path: '/pets' })).framing).toMatch(
      /^the body is not framed as HTTP\/1\.1 says after 2 bytes: Parse Error/,
    );
    const cut = await rawServer([{ bytes: `${chunked}2\r\n[]\r\n`, close: true }]);
    expect((await clientOf(cut.baseUrl)({ method: 'GET', path: '/pets' })).framing).toBe(
      'the connection closed after 2 bytes of a chunked body without its last chunk',
    );
    const noContent = await rawServer([{ bytes: 'HTTP/1.1 204 No Content\r\n\r\n{"id":1}' }]);
    expect((await clientOf(noContent.baseUrl)({ method: 'DELETE', path: '/pets/1' })).framing).toBe(
      'a 204 has no body, yet 8 bytes followed its headers',
    );
  });

  it('blames bytes that come late after an answer on that answer, and sends the next request again', async () => {
    // The surplus arrives after the answer was read: the next request on that connection meets it first.
    const server = await rawServer([{ bytes: json('[]'), later: 'garbage' }, { bytes: json('[1]') }]);
    const send = clientOf(server.baseUrl);
    expect((await send({ method: 'GET', path: '/pets' })).framing).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next: RawResponse = await send({ method: 'GET', path: '/pets', query: { limit: '1' } });
    expect(next).toMatchObject({ status: 200, text: '[1]' });
    expect(next.framing).toBe(
      'the answer to GET /pets → 200 was followed by 7 bytes more than it announced, after it had ended',
    );
    expect(server.connections()).toBe(2);
  });

  it('sends a request again on a new connection when the server closed the kept-alive one as it left', async () => {
    const server = await rawServer([{ bytes: json('[]') }, { bytes: '', close: true }, { bytes: json('[2]') }]);
    const send = clientOf(server.baseUrl);
    await send({ method: 'GET', path: '/pets' });
    const again = await send({ method: 'GET', path: '/pets' });
    expect(again).toMatchObject({ status: 200, text: '[2]' });
    expect(again.framing).toBeUndefined();
    expect(server.connections()).toBe(2);
  });

  it('says when a body does not decode as its Content-Encoding says', async () => {
    const zipped = gzipSync(Buffer.from('[]')).subarray(0, 8);
    const server = await rawServer([
      {
        bytes: Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${zipped.length}\r\n\r\n`,
          ),
          zipped,
        ]),
      },
    ]);
    const answer = await clientOf(server.baseUrl)({ method: 'GET', path: '/pets' });
    expect(answer.encoding).toMatch(/^the body does not decode as gzip: /);
  });

  it('turns a broken framing into a failing framing finding of the check, not a crash', async () => {
    const body = '[{"id":1,"name":"Zoë","categoryId":1}]';
    const server = await rawServer([{ bytes: json(body, body.length) }]);
    const compiled = compileDocument(loadDocument(defaultDocumentPath));
    const api = createContractSession({
      settings: {
        baseUrl: server.baseUrl,
        token: 'key',
        readOnly: false,
        strict: false,
        timeoutMs: 2_000,
        headers: {},
        namePrefix: 'contract-test-',
        seed: 1,
        settleMs: 100,
        budget: 0,
        concurrency: 1,
        durationMs: 0,
        patience: defaultPatience,
      },
      compiled,
      send: clientOf(server.baseUrl),
      redact: createRedactor(['key']),
    });
    const list = compiled.operations.find(
      (operation) => operation.method === 'GET' && !operation.pathTemplate.includes('{'),
    );
    if (!list) throw new Error('the document has no list');
    api.begin('framing');
    const response = await api.call(list, { query: {} });
    const [first] = response.findings;
    expect(first).toMatchObject({ rule: 'framing', level: 'fail', exchange: 'GET /pets → 200' });
    expect(first?.message).toBe(
      'listPets answered 200, framed wrongly: 1 byte more came after the 38 bytes its Content-Length announced',
    );
    expect(api.end().findings.map((found) => found.rule)).toContain('framing');
  });
});
