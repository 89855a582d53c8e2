import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { putBack } from '../support/put-back.js';
import { sendRaw } from '../support/raw-request.js';
import { killRunningClis, startCli, waitForBanner, waitForProxyBanner } from './start-cli.js';

// Issue 36: what RFC 9112 asks of a request's head that Node's parser lets through, on the mock and the proxy as
// users start them. Each request is written byte for byte, and each answer read until the server closes. These
// tests are about requests, not about start-up: one mock serves them all, put back to its start before each
// (its sessions dropped, the default one reset), and one proxy, its upstream's record of what reached it
// emptied before each.

const pet = '{"name":"Framed","categoryId":1}';
const chunked = `${pet.length.toString(16)}\r\n${pet}\r\n0\r\n\r\n`;

/** A raw answer's status, its Error body (when it has one), and the whole text. */
function parsed(text: string): { status: number; body: { code?: string; message?: string; status?: number } } {
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status, body: body.startsWith('{') ? (JSON.parse(body) as object) : {} };
}

/** `POST /v1/pets` with `head` (its request line's version and framing headers) and `body`, connection closed after. */
function post(port: string, version: string, framing: string, body: string): string {
  return `POST /v1/pets HTTP/${version}\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer dev-key\r\nContent-Type: application/json\r\n${framing}Connection: close\r\n\r\n${body}`;
}

interface Started {
  origin: string;
  port: string;
}

const framings: Array<[string, string, string, number, string, RegExp]> = [
  [
    'identity, chunked',
    '1.1',
    'Transfer-Encoding: identity, chunked\r\n',
    501,
    'not_implemented',
    /holds the transfer coding "identity", which this server does not implement.*RFC 9112 §6\.1; identity has been no transfer coding since RFC 7230/,
  ],
  [
    'gzip, chunked',
    '1.1',
    'Transfer-Encoding: gzip, chunked\r\n',
    501,
    'not_implemented',
    /holds the transfer coding "gzip"/,
  ],
  [
    'identity and chunked on two lines',
    '1.1',
    'Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n',
    501,
    'not_implemented',
    /Transfer-Encoding "identity, chunked"/,
  ],
  [
    'chunked in an HTTP/1.0 request',
    '1.0',
    'Transfer-Encoding: chunked\r\n',
    400,
    'malformed_request',
    /an HTTP\/1\.0 request carries Transfer-Encoding/,
  ],
];

/** The HTTP edge cases both listeners answer alike, the mock's and the proxy's (they share the Node server). */
function edgeCases(start: () => Promise<Started & { forwarded?: () => string[] }>) {
  it('answers 400 with an Error body to a request with two Host headers, and closes the connection', async () => {
    const { origin, port, forwarded } = await start();
    for (const second of ['evil.example', `127.0.0.1:${port}`]) {
      const answer = parsed(
        await sendRaw(
          origin,
          `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: ${second}\r\nAuthorization: Bearer dev-key\r\n\r\n`,
        ),
      );
      expect(answer.status, second).toBe(400);
      expect(answer.body).toEqual({
        code: 'malformed_request',
        message: 'the request has 2 Host headers; HTTP/1.1 allows exactly one (RFC 9112 §3.2)',
        status: 400,
      });
    }
    expect(forwarded?.() ?? []).toEqual([]);
  });

  it.each(framings)(
    'refuses Transfer-Encoding %s with an Error body, reads no body, and closes the connection',
    async (_name, version, framing, status, code, message) => {
      const { origin, port, forwarded } = await start();
      // sendRaw resolves only once the server closes the connection.
      const answer = parsed(await sendRaw(origin, post(port, version, framing, chunked)));
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ code, status, message: expect.stringMatching(message) });
      expect(forwarded?.() ?? []).toEqual([]);
    },
  );

  it('takes a chunked body, in any case', async () => {
    const { origin, port } = await start();
    const answer = parsed(await sendRaw(origin, post(port, '1.1', 'Transfer-Encoding: Chunked\r\n', chunked)));
    expect(answer.status).toBe(201);
  });

  it('accepts an absolute-form request target, and checks its authority as the Host', async () => {
    const { origin, port, forwarded } = await start();
    const get = (target: string, host: string) =>
      sendRaw(
        origin,
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer dev-key\r\nConnection: close\r\n\r\n`,
      ).then(parsed);
    expect((await get(`http://127.0.0.1:${port}/v1/pets?limit=1`, `127.0.0.1:${port}`)).status).toBe(200);
    expect((await get(`HTTP://localhost:${port}/v1/pets`, `localhost:${port}`)).status).toBe(200);
    // A target that names another host than the Host header: which one is meant cannot be told.
    const mismatched = await get(`http://evil.example/v1/pets`, `127.0.0.1:${port}`);
    expect(mismatched.status).toBe(400);
    expect(mismatched.body).toMatchObject({
      code: 'malformed_request',
      message: `the request target names the host "evil.example" and its Host header "127.0.0.1:${port}"; they must be the same (RFC 9112 §3.2)`,
    });
    // A target and a Host that agree on a name the server does not answer to: refused as that Host is.
    const rebound = await get(`http://evil.example:${port}/v1/pets`, `evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatchObject({ code: 'host_not_allowed' });
    const userinfo = await get(`http://user@127.0.0.1:${port}/v1/pets`, `user@127.0.0.1:${port}`);
    expect(userinfo.status).toBe(400);
    if (forwarded) expect(forwarded()).toEqual(['/v1/pets?limit=1', '/v1/pets']);
  });
}

describe('petstore-mock, answering the edge cases of HTTP/1.1 as a user starts it', () => {
  let mock: Started;
  beforeAll(async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent']);
    const origin = new URL(await waitForBanner(cli)).origin;
    mock = { origin, port: new URL(origin).port };
  });
  afterAll(() => killRunningClis());

  const start = async (): Promise<Started> => {
    await putBack(mock.origin, 'dev-key');
    return mock;
  };

  edgeCases(start);

  it('creates nothing from a body whose Transfer-Encoding it refused', async () => {
    const { origin, port } = await start();
    for (const [, version, framing] of framings) await sendRaw(origin, post(port, version, framing, chunked));
    const pets = (await (
      await fetch(`${origin}/v1/pets?limit=100`, { headers: { Authorization: 'Bearer dev-key' } })
    ).json()) as Array<{ name: string }>;
    expect(pets.filter((each) => each.name === 'Framed')).toEqual([]);
  });

  it('resolves none of the dot-segment spellings the proxy refuses: each is a path it does not serve', async () => {
    const { origin } = await start();
    for (const target of [
      '/v1/pets/..;/pets',
      '/v1/pets/%2e%2e;/pets',
      '/v1/pets/..%3b/pets',
      '/v1/pets/.;/1',
      '/v1/pets/%252e%252e/pets',
      '/v1/pets/%c0%ae%c0%ae/pets',
      '/v1/pets/%u002e%u002e/pets',
      '/__admin/..;/v1/pets',
    ]) {
      const answer = parsed(
        await sendRaw(
          origin,
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer dev-key\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(answer.status, target).toBe(404);
      expect(answer.body.code, target).toBe('route_not_found');
    }
  });
});

describe('petstore-mock proxy, answering the edge cases of HTTP/1.1 as a user starts it', () => {
  const seen: string[] = [];
  let upstream: Server;
  let proxy: Started;
  beforeAll(async () => {
    upstream = createHttpServer((request, response) => {
      seen.push(request.url ?? '');
      request.resume();
      response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      response.end(request.method === 'POST' ? '{"id":1,"name":"Framed","categoryId":1}' : '[]');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const cli = startCli(['proxy', '--upstream', url, '--port', '0', '--log-level', 'silent']);
    const origin = new URL(await waitForProxyBanner(cli)).origin;
    proxy = { origin, port: new URL(origin).port };
  });
  beforeEach(() => {
    seen.splice(0);
  });
  afterAll(async () => {
    killRunningClis();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  edgeCases(async () => ({
    ...proxy,
    forwarded: () => seen.filter((target) => target.startsWith('/v1/pets')),
  }));
});
