import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { clientErrorResponse, type ServerLimits } from '../../src/node/create-server.js';
import { startServer, type RunningServer } from '../support/start-server.js';

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  text: string;
  /** Milliseconds from connecting to the close. */
  closedAfter: number;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The first HTTP/1.1 response in `text`, its JSON body parsed. */
function parseResponse(text: string): RawResponse {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  const length = Number(headers['content-length'] ?? 0);
  const body = rest.join('\r\n\r\n').slice(0, length);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: headers['content-type']?.includes('json') ? JSON.parse(body) : body,
  };
}

const sockets: Socket[] = [];

/**
 * Opens a raw connection, lets `drive` write to it, and resolves when the
 * server closes it (or after `giveUpAfter` ms, with `closedAfter` Infinity).
 */
function exchange(origin: string, drive: (socket: Socket) => void, giveUpAfter = 5_000): Promise<RawExchange> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedAfter: Number.POSITIVE_INFINITY });
    }, giveUpAfter);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the server's answer still counts as the close.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfter: Date.now() - started });
    });
    socket.on('connect', () => drive(socket));
  });
}

const responses = (text: string): string[] => text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part !== '');

/** A client that connects and neither sends nor closes its side: the server must let it go on its own. */
function hostileSocket(origin: string): Socket {
  const socket = connect({ port: Number(new URL(origin).port), host: '127.0.0.1', allowHalfOpen: true });
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.on('end', () => undefined);
  return socket;
}

function openConnections(running: RunningServer): Promise<number> {
  return new Promise((resolve, reject) =>
    running.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** Polls `condition` until it holds, failing after `timeoutMs`. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('createServer', () => {
  let mock: RunningServer;
  const start = async (limits: ServerLimits = {}) => {
    mock = await startServer(
      createNodeListener(createNodeMock({ keys: ['test-key'], scenario: 'one-of-each-status' })),
      limits,
    );
    return mock;
  };
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await mock.close();
  });

  it('answers headers over the limit with 431 and a JSON Error body', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) =>
      socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`),
    );
    const response = parseResponse(text);
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.connection).toBe('close');
    expect(response.body).toEqual({
      code: 'headers_too_large',
      message: 'the request line and headers are larger than the limit of 16384 bytes',
      status: 431,
    });
  });

  it('serves headers just under the limit', async () => {
    await start();
    const response = await fetch(`${mock.baseUrl}/pets`, {
      headers: { Authorization: 'Bearer test-key', 'X-Big': 'a'.repeat(15 * 1024) },
    });
    expect(response.status).toBe(200);
  });

  it('answers a malformed request line with 400 and a JSON Error body', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) => socket.write('GET /v1/pets HTTP/9.Q\r\n\r\n'));
    const response = parseResponse(text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toMatchObject({ code: 'malformed_request', status: 400 });
  });

  it('answers a header line without a colon with 400 and a JSON Error body', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) =>
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'),
    );
    expect(parseResponse(text)).toMatchObject({ status: 400, body: { code: 'malformed_request', status: 400 } });
  });

  it('answers an HTTP/1.1 request without Host with 400 host_required and a JSON Error body, not a bare 400', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) =>
      socket.write('GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer test-key\r\nConnection: close\r\n\r\n'),
    );
    const response = parseResponse(text);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toEqual({
      code: 'host_required',
      message: 'the request has no Host header, which HTTP/1.1 requires (RFC 9112, section 3.2)',
      status: 400,
    });
  });

  it('answers an HTTP/1.0 request without Host, which HTTP/1.0 allows, when no Host check is asked for', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) =>
      socket.write('GET /v1/pets/1 HTTP/1.0\r\nAuthorization: Bearer test-key\r\n\r\n'),
    );
    expect(parseResponse(text).status).toBe(200);
  });

  it('cuts off a client that sends its headers too slowly (slowloris), with 408 JSON', async () => {
    await start({ headersTimeout: 500, requestTimeout: 1_000 });
    let drip: NodeJS.Timeout | undefined;
    const result = await exchange(mock.origin, (socket) => {
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
      // One header byte every 50 ms: the connection is never idle, the headers never end.
      drip = setInterval(() => socket.writable && socket.write('X'), 50);
    });
    clearInterval(drip);
    expect(result.closedAfter).toBeGreaterThanOrEqual(450);
    expect(result.closedAfter).toBeLessThan(1_500);
    const response = parseResponse(result.text);
    expect(response.status).toBe(408);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toMatchObject({ code: 'request_timeout', status: 408 });
  });

  it('cuts off a client that sends its body too slowly, with 408 JSON', async () => {
    await start({ headersTimeout: 500, requestTimeout: 800 });
    let drip: NodeJS.Timeout | undefined;
    const result = await exchange(mock.origin, (socket) => {
      socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      drip = setInterval(() => socket.writable && socket.write(' '), 50);
    });
    clearInterval(drip);
    expect(result.closedAfter).toBeLessThan(2_000);
    expect(parseResponse(result.text)).toMatchObject({ status: 408, body: { code: 'request_timeout', status: 408 } });
  });

  it('closes a connection that never sends a byte', async () => {
    await start({ headersTimeout: 500, requestTimeout: 1_000 });
    const result = await exchange(mock.origin, () => undefined);
    expect(result.closedAfter).toBeLessThan(1_500);
  });

  it('destroys a connection after its 408 even when the client never closes its side', async () => {
    await start({ headersTimeout: 300, requestTimeout: 600 });
    const started = Date.now();
    const socket = hostileSocket(mock.origin);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    await waitFor(async () => text.includes('\r\n\r\n{'));
    expect(parseResponse(text)).toMatchObject({ status: 408, body: { code: 'request_timeout' } });
    await waitFor(async () => (await openConnections(mock)) === 0);
    // The headers timeout, Node's check interval and the linger for the client to read: never the 120 s idle limit.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('lets idle connections that fill the connection limit go within the headers timeout, then serves a new client', async () => {
    await start({ headersTimeout: 300, requestTimeout: 600, maxConnections: 20 });
    // Twenty clients that connect, send nothing and never close their side.
    const idle = Array.from({ length: 20 }, () => hostileSocket(mock.origin));
    await Promise.all(idle.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
    await waitFor(async () => (await openConnections(mock)) === 20);
    // While they hold every slot, a new client is turned away.
    await expect(
      fetch(`${mock.baseUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer test-key' } }),
    ).rejects.toThrow();
    await waitFor(async () => (await openConnections(mock)) === 0, 5_000);
    const served = await fetch(`${mock.baseUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer test-key' } });
    expect(served.status).toBe(200);
  });

  it('closes a connection whose client closed its side without a request', async () => {
    await start({ headersTimeout: 5_000, requestTimeout: 10_000 });
    const socket = hostileSocket(mock.origin);
    socket.once('connect', () => socket.end());
    await waitFor(async () => socket.destroyed || socket.readableEnded);
    await waitFor(async () => (await openConnections(mock)) === 0);
  });

  it('answers an Expect it does not know with 417 and a JSON Error body', async () => {
    await start();
    const { text } = await exchange(mock.origin, (socket) =>
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: banana\r\n\r\n'),
    );
    const response = parseResponse(text);
    expect(response.status).toBe(417);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toEqual({
      code: 'expectation_failed',
      message: 'the Expect header "banana" is not supported; only 100-continue is',
      status: 417,
    });
  });

  it('answers CONNECT with 405 and a JSON Error body naming the method, then closes', async () => {
    await start();
    const result = await exchange(mock.origin, (socket) =>
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );
    const response = parseResponse(result.text);
    expect(response.status).toBe(405);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.allow).toBe('');
    expect(response.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect((response.body as { message: string }).message).toContain('CONNECT');
    expect(result.closedAfter).toBeLessThan(2_000);
  });

  it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
    await start({ keepAliveTimeout: 300 });
    const result = await exchange(mock.origin, (socket) =>
      socket.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n\r\n'),
    );
    expect(parseResponse(result.text).status).toBe(200);
    // Node waits up to a second more than keepAliveTimeout (its keep-alive buffer), never the 5 s default.
    expect(result.closedAfter).toBeGreaterThanOrEqual(250);
    expect(result.closedAfter).toBeLessThan(2_500);
  });

  it('serves at most maxRequestsPerSocket requests on one connection, then closes it', async () => {
    await start({ maxRequestsPerSocket: 2 });
    const get = 'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n\r\n';
    const result = await exchange(mock.origin, (socket) => {
      socket.write(get);
      setTimeout(() => socket.writable && socket.write(get), 100);
    });
    const [first = '', second = '', ...more] = responses(result.text);
    expect(parseResponse(first).status).toBe(200);
    expect(parseResponse(first).headers.connection).toBe('keep-alive');
    expect(parseResponse(second).status).toBe(200);
    expect(parseResponse(second).headers.connection).toBe('close');
    expect(more).toEqual([]);
    expect(result.closedAfter).toBeLessThan(2_000);
  });

  it('keeps a connection open for more requests when the limit is not reached', async () => {
    await start({ maxRequestsPerSocket: 3, keepAliveTimeout: 5_000 });
    const get = 'GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n\r\n';
    const result = await exchange(
      mock.origin,
      (socket) => {
        socket.write(get);
        setTimeout(() => socket.writable && socket.write(get), 100);
      },
      600,
    );
    expect(result.closedAfter).toBe(Number.POSITIVE_INFINITY);
    expect(responses(result.text).map((text) => parseResponse(text).headers.connection)).toEqual([
      'keep-alive',
      'keep-alive',
    ]);
  });
});

describe('clientErrorResponse', () => {
  it('is a complete HTTP/1.1 response whose Content-Length matches its JSON body', () => {
    const text = clientErrorResponse('request_timeout', 'slow – très lent');
    const response = parseResponse(text);
    expect(response.status).toBe(408);
    expect(response.body).toEqual({ code: 'request_timeout', message: 'slow – très lent', status: 408 });
    expect(Number(response.headers['content-length'])).toBe(
      Buffer.byteLength(JSON.stringify({ code: 'request_timeout', message: 'slow – très lent', status: 408 })),
    );
  });
});
