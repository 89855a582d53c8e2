import { request as httpRequest } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { createProxy, type ProxyOptions } from '../../src/proxy/create-proxy.js';
import { startServer, type RunningServer } from '../support/start-server.js';

/**
 * Upstreams that misbehave on purpose, each a raw TCP server on 127.0.0.1, so
 * that it can send what no HTTP library would: a 101 to a plain request, one
 * byte at a time, headers then nothing, a reset in the middle of a body. The
 * proxy runs with short limits; every client must get an answer (an Error
 * body for 502/504) within the proxy's deadline.
 */

const auth = { Authorization: 'Bearer upstream-key' };
const deadlineMs = 600;
/** What a loaded machine may add to the deadline before the answer arrives. */
const slackMs = 1_500;

interface HostileUpstream {
  url: string;
  /** Connections the upstream has seen, and whether each is closed. */
  connections: Array<{ socket: Socket; closed: boolean }>;
  close(): Promise<void>;
}

/** Starts a raw upstream; `onRequest` gets the socket once a request's headers have arrived. */
async function startUpstream(onRequest: (socket: Socket, head: string) => void): Promise<HostileUpstream> {
  const connections: HostileUpstream['connections'] = [];
  const server: TcpServer = createTcpServer((socket) => {
    const entry = { socket, closed: false };
    connections.push(entry);
    socket.on('close', () => (entry.closed = true));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      onRequest(socket, head);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const { socket } of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface ClientAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

/** A client of the proxy, over a socket; resolves with whatever answer comes, and how long it took. */
function send(url: string, headers: Record<string, string> = auth): Promise<ClientAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function errorOf(answer: ClientAnswer): { code: string; message: string; status: number } {
  expect(answer.headers['content-type']).toBe('application/json');
  return JSON.parse(answer.body.toString()) as { code: string; message: string; status: number };
}

const silent: MockLogger = { error() {}, warn() {}, info() {}, debug() {}, isLevelEnabled: () => false };

const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const running of started.splice(0).reverse()) await running.close();
});

async function proxyFor(upstream: HostileUpstream, options: Partial<ProxyOptions> = {}) {
  started.push(upstream);
  const proxy = createProxy({ upstream: upstream.url, timeoutMs: deadlineMs, logger: silent, ...options });
  const server: RunningServer = await startServer(proxy.listener);
  started.push(server);
  return { proxy, server };
}

/** Polls until `condition` holds, failing after `timeoutMs`. */
async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the proxy in front of a hostile upstream', () => {
  it.each([
    ['with Upgrade headers', 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n'],
    ['without them', 'HTTP/1.1 101 Switching Protocols\r\n\r\n'],
  ])('answers 502 upstream_protocol_error at once to a 101 %s', async (_what, answer) => {
    const upstream = await startUpstream((socket) => socket.write(answer));
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(502);
    expect(errorOf(through)).toMatchObject({ code: 'upstream_protocol_error', status: 502 });
    expect(errorOf(through).message).toContain('101');
    expect(through.ms).toBeLessThan(deadlineMs + slackMs);
  });

  it('waits past a 102 for the final answer, and passes it on', async () => {
    const upstream = await startUpstream((socket) =>
      socket.write(
        'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]',
      ),
    );
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(200);
    expect(through.body.toString()).toBe('[]');
  });

  it('answers 504 within its deadline to an upstream that sends 1xx answers and never a final one', async () => {
    const upstream = await startUpstream((socket) => {
      const timer = setInterval(() => socket.writable && socket.write('HTTP/1.1 102 Processing\r\n\r\n'), 50);
      socket.on('close', () => clearInterval(timer));
    });
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(504);
    expect(errorOf(through).code).toBe('upstream_timeout');
    expect(through.ms).toBeLessThan(deadlineMs + slackMs);
  });

  it('answers 504 within its deadline to an upstream that trickles a byte at a time, and cancels it', async () => {
    const upstream = await startUpstream((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[');
      const timer = setInterval(() => socket.writable && socket.write(' '), 50);
      socket.on('close', () => clearInterval(timer));
    });
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets?limit=5&api_key=s3cret-value`);
    expect(through.status).toBe(504);
    const error = errorOf(through);
    expect(error).toMatchObject({ code: 'upstream_timeout', status: 504 });
    // The message names the request, its credentials redacted.
    expect(error.message).toContain('GET /v1/pets?limit=5&api_key=[redacted]');
    expect(error.message).not.toContain('s3cret-value');
    expect(through.ms).toBeGreaterThanOrEqual(deadlineMs - 50);
    expect(through.ms).toBeLessThan(deadlineMs + slackMs);
    await waitFor(() => upstream.connections.every((connection) => connection.closed));
  });

  it('answers 504 within its deadline to an upstream that sends its headers and then nothing', async () => {
    const upstream = await startUpstream((socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n[{"id":1,'),
    );
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(504);
    expect(errorOf(through).code).toBe('upstream_timeout');
    expect(through.ms).toBeLessThan(deadlineMs + slackMs);
    await waitFor(() => upstream.connections.every((connection) => connection.closed));
  });

  it('answers 502 at once to an upstream that resets the connection in the middle of its body', async () => {
    const upstream = await startUpstream((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"id":1,', () =>
        setTimeout(() => socket.resetAndDestroy(), 20),
      );
    });
    const { server, proxy } = await proxyFor(upstream, { timeoutMs: 10_000 });
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(502);
    expect(errorOf(through)).toMatchObject({ code: 'upstream_protocol_error', status: 502 });
    expect(errorOf(through).message).toContain('it ended after 9 of the 100 bytes its Content-Length announces');
    expect(through.ms).toBeLessThan(slackMs);
    // A body cut short of its Content-Length is the deployment's broken answer, not only the client's 502.
    expect(proxy.report.toJson().deployment.findings.map((found) => found.rule)).toEqual(['framing']);
  });

  it('passes a gzip bomb on unchanged and unjudged, inflating no more than it judges', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const upstream = await startUpstream((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`,
          ),
          bomb,
        ]),
      ),
    );
    const { proxy, server } = await proxyFor(upstream, {
      timeoutMs: 10_000,
      forwarder: { maxJudgedBytes: 1024 * 1024 },
    });
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(200);
    expect(through.headers['content-encoding']).toBe('gzip');
    expect(through.body.equals(bomb)).toBe(true);
    // The proxy's own limit is no evidence against the upstream: observed, not a failure.
    expect(through.headers['petstore-violations']).toBeUndefined();
    expect(proxy.report.toJson().deployment.findings).toMatchObject([
      {
        side: 'response',
        level: 'observed',
        rule: 'too-large-to-judge',
        message: 'the decoded answer is larger than 1 MiB, the most the proxy judges; it was passed on unjudged',
      },
    ]);
  });

  it('reports a truncated gzip answer without a raw byte of it in the report or the JUnit file', async () => {
    const zipped = gzipSync('[{"id":1,"name":"Cut","categoryId":1}]');
    const cut = zipped.subarray(0, zipped.length - 12);
    const upstream = await startUpstream((socket) =>
      socket.end(
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${cut.length}\r\n\r\n`,
          ),
          cut,
        ]),
      ),
    );
    const { proxy, server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(200);
    expect(through.body.equals(cut)).toBe(true);
    expect(proxy.report.toJson().deployment.findings).toMatchObject([
      { side: 'response', level: 'fail', rule: 'content-encoding' },
    ]);
    // No control character but the newlines the formats use.
    const controls = (text: string) => [...text].filter((char) => char < ' ' && char !== '\n');
    expect(controls(JSON.stringify(proxy.report.toJson()))).toEqual([]);
    expect(controls(proxy.report.toJunit())).toEqual([]);
  });

  it('passes several Set-Cookie headers on as several headers, not joined', async () => {
    const upstream = await startUpstream((socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: a=1; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT\r\nSet-Cookie: b=2; HttpOnly\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]',
      ),
    );
    const { server } = await proxyFor(upstream);
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(200);
    expect(through.headers['set-cookie']).toEqual([
      'a=1; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      'b=2; HttpOnly',
    ]);
  });

  it('cancels the upstream request when the client leaves before the answer', async () => {
    const upstream = await startUpstream(() => undefined);
    const { server } = await proxyFor(upstream, { timeoutMs: 30_000 });
    const req = httpRequest(`${server.baseUrl}/pets`, { headers: auth, agent: false });
    req.on('error', () => undefined);
    req.end();
    await waitFor(() => upstream.connections.length === 1);
    req.destroy();
    // Long before the proxy's 30 s deadline, the upstream sees its connection closed.
    await waitFor(() => upstream.connections[0]?.closed === true, 3_000);
  });

  it('answers 503 upstream_busy at once beyond the requests it lets wait, and serves again once they end', async () => {
    let stalled = true;
    const upstream = await startUpstream((socket) => {
      if (!stalled) socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
    });
    const { server } = await proxyFor(upstream, { timeoutMs: 1_500, forwarder: { maxPending: 3 } });
    const stuck = [send(`${server.baseUrl}/pets`), send(`${server.baseUrl}/pets`), send(`${server.baseUrl}/pets`)];
    await waitFor(() => upstream.connections.length === 3);
    const refused = await send(`${server.baseUrl}/pets`);
    expect(refused.status).toBe(503);
    expect(errorOf(refused)).toMatchObject({ code: 'upstream_busy', status: 503 });
    expect(errorOf(refused).message).toContain('(3)');
    expect(refused.ms).toBeLessThan(1_000);
    // The admin API still answers meanwhile.
    const health = await send(`${server.origin}/__admin/health`, {});
    expect(health.status).toBe(200);
    // The stuck ones end at the deadline; then the proxy forwards again.
    expect((await Promise.all(stuck)).map((answer) => answer.status)).toEqual([504, 504, 504]);
    stalled = false;
    expect((await send(`${server.baseUrl}/pets`)).status).toBe(200);
  });
});

describe('the proxy judging how an upstream frames its answers', () => {
  const json = (headers: string, body: string) =>
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;

  it.each([
    [
      'a Content-Length that counts characters, not bytes',
      json(
        `Content-Length: ${'[{"id":1,"name":"Füchslein","categoryId":1}]'.length}\r\n`,
        '[{"id":1,"name":"Füchslein","categoryId":1}]',
      ),
      'its body holds more bytes than its Content-Length of 44',
    ],
    [
      'a body longer than its Content-Length',
      json('Content-Length: 2\r\n', '[]  more'),
      'its body holds more bytes than its Content-Length of 2',
    ],
    [
      'broken chunked coding',
      json('Transfer-Encoding: chunked\r\n', 'zz\r\n[]\r\n0\r\n\r\n'),
      'its chunked body is broken (HPE_INVALID_CHUNK_SIZE',
    ],
    [
      'a body with a 204',
      'HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\n[]',
      'it sent a body with a 204, which has none',
    ],
    // Issue 36: refused by Node's parser before the status line and headers were whole, these were labelled
    // `upstream_unreachable … HPE_…`, as if the network had failed, and found nothing.
    [
      'two Content-Length values',
      json('Content-Length: 2\r\nContent-Length: 3\r\n', '[]'),
      'it sent Content-Length twice, where it is one decimal length (RFC 9110 §8.6',
    ],
    [
      'the same Content-Length twice',
      json('Content-Length: 2\r\nContent-Length: 2\r\n', '[]'),
      'it sent Content-Length twice',
    ],
    [
      'a Content-Length that is a list',
      json('Content-Length: 2, 2\r\n', '[]'),
      'its Content-Length is not one decimal length',
    ],
    [
      'Content-Length with Transfer-Encoding',
      json('Content-Length: 2\r\nTransfer-Encoding: chunked\r\n', '2\r\n[]\r\n0\r\n\r\n'),
      'it sent both Content-Length and Transfer-Encoding, which a sender must not (RFC 9112 §6.2',
    ],
    ['an HTTP/0.9 answer, a body without a status line', '[]', 'it answered without an HTTP/1.1 status line'],
    [
      'a status of four digits',
      'HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\n[]',
      'its status line holds no three-digit status code',
    ],
  ])('fails the deployment for %s, and answers the client 502 saying so', async (_what, answer, problem) => {
    const upstream = await startUpstream((socket) => socket.write(Buffer.from(answer, 'utf8')));
    const { server, proxy } = await proxyFor(upstream, { timeoutMs: 10_000 });
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(502);
    const error = errorOf(through);
    expect(error).toMatchObject({ code: 'upstream_protocol_error', status: 502 });
    expect(error.message).toContain(problem);
    expect(error.message).not.toMatch(/after 0 bytes/);
    const report = proxy.report.toJson();
    expect(report.deployment.findings.map((found) => [found.rule, found.level])).toEqual([['framing', 'fail']]);
    expect(report.deployment.findings[0]?.message).toContain(problem);
    expect(report.failed).toBe(true);
  });

  it('answers 502 to headers larger than it reads, and observes it without failing the deployment', async () => {
    const upstream = await startUpstream((socket) =>
      socket.write(json(`X-Large: ${'a'.repeat(20 * 1024)}\r\nContent-Length: 2\r\n`, '[]')),
    );
    const { server, proxy } = await proxyFor(upstream, { timeoutMs: 10_000 });
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(502);
    const error = errorOf(through);
    expect(error).toMatchObject({ code: 'upstream_protocol_error', status: 502 });
    expect(error.message).toMatch(
      /cannot be passed on: its status line and headers are larger than the \d+ bytes the proxy reads \(a bound of the kit: HTTP sets none\)$/,
    );
    const report = proxy.report.toJson();
    // HTTP sets no limit on a header section's size: the kit's own bound fails no deployment.
    expect(report.deployment.findings.map((found) => [found.rule, found.level])).toEqual([
      ['too-large-to-judge', 'observed'],
    ]);
    expect(report.failed).toBe(false);
  });

  it('passes on an answer whose Content-Length counts its bytes, names beyond ASCII included', async () => {
    const body = '[{"id":1,"name":"Füchslein","categoryId":1}]';
    const upstream = await startUpstream((socket) =>
      socket.write(Buffer.from(json(`Content-Length: ${Buffer.byteLength(body)}\r\n`, body), 'utf8')),
    );
    const { server, proxy } = await proxyFor(upstream, { timeoutMs: 10_000 });
    const through = await send(`${server.baseUrl}/pets`);
    expect(through.status).toBe(200);
    expect(through.body.toString('utf8')).toBe(body);
    expect(proxy.report.toJson().deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
  });
});
