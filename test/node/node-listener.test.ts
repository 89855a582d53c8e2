import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withFoldedHeaders, type PlainRequest, type PlainResponse } from '../../src/core/http/plain-http.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener, toPlainRequest, writeNodeResponse } from '../../src/node/node-listener.js';
import { jsonAuth, request, startServer, type RunningServer } from '../support/start-server.js';

/** Sends bytes as a raw HTTP/1.1 request body in chunks, with no Content-Length (chunked), and reads the answer. */
function sendChunked(origin: string, path: string, chunks: Buffer[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: 'POST', headers: { ...jsonAuth } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('the node:http adapter', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      createNodeListener(createNodeMock({ keys: ['test-key'], scenario: 'empty', bodyLimit: 1024 })),
    );
  });
  afterAll(() => server.close());

  it('answers with one writeHead and the exact bytes of the core’s response', async () => {
    const created = await request(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: '{"name":"Zoë","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    expect(created.text).toBe('{"id":1,"name":"Zoë","categoryId":9223372036854775807}');
    expect(created.headers.get('content-length')).toBe(String(Buffer.byteLength(created.text)));
  });

  it('refuses a Content-Length above the limit with 413 before reading the body', async () => {
    const response = await request(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify({ name: 'x'.repeat(2000), categoryId: 1 }),
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('refuses a chunked body as soon as it grows beyond the limit', async () => {
    const response = await sendChunked(server.baseUrl, '/pets', [
      Buffer.from('{"name":"'),
      Buffer.alloc(800, 'a'),
      Buffer.alloc(800, 'b'),
      Buffer.from('","categoryId":1}'),
    ]);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'payload_too_large' });
  });

  it('reads a chunked body within the limit', async () => {
    const response = await sendChunked(server.baseUrl, '/pets', [
      Buffer.from('{"name":"Chunky",'),
      Buffer.from('"categoryId":2}'),
    ]);
    expect(response.status).toBe(201);
  });

  it('inflates brotli with zlib, and refuses a body that inflates beyond the limit', async () => {
    const { brotliCompressSync } = await import('node:zlib');
    const small = await request(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, 'Content-Encoding': 'br' },
      body: new Uint8Array(brotliCompressSync('{"name":"Brotli","categoryId":3}')),
    });
    expect(small.status).toBe(201);
    const bomb = await request(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, 'Content-Encoding': 'gzip' },
      body: new Uint8Array(gzipSync(JSON.stringify({ name: 'x'.repeat(100_000), categoryId: 1 }))),
    });
    expect(bomb.status).toBe(413);
    expect(bomb.body).toMatchObject({ message: 'the body inflates beyond the limit of 1024 bytes' });
  });

  /** A raw connection to the mock, to send a request's head and as much of its body as a test wants. */
  async function connectRaw() {
    const socket = connect((server.server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    return socket;
  }

  it('refuses a Content-Length above the limit with 413 before a byte of the body is sent', async () => {
    const socket = await connectRaw();
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('}')) resolve(text);
      });
      socket.on('error', reject);
      socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-key\r\n' +
          'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n',
      );
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });

  it('answers 400 request_aborted, in the journal, to a body whose client stops sending', async () => {
    const socket = await connectRaw();
    socket.end(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-key\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    socket.destroy();
    await vi.waitFor(
      async () => {
        const journal = await request<{ requests: Array<{ status: number; responseBody?: string }> }>(
          `${server.origin}/__admin/requests`,
          { headers: jsonAuth },
        );
        const last = journal.body.requests.at(-1);
        expect(last?.status).toBe(400);
        expect(JSON.parse(last?.responseBody ?? '{}')).toMatchObject({
          code: 'request_aborted',
          message: 'the client stopped sending the body',
        });
        // The abort is heard when the connection's close reaches the server: waited for, however busy the machine.
      },
      { timeout: 10_000 },
    );
  });

  it('hands the core the path and query as sent and Node’s lower-case headers', () => {
    const plain = toPlainRequest({
      url: '/v1/pets?limit=5&status=sold',
      method: 'GET',
      headers: { authorization: 'Bearer k', 'x-trace': 'a, b' },
    } as never);
    expect(plain).toEqual({
      method: 'GET',
      path: '/v1/pets',
      query: 'limit=5&status=sold',
      headers: { authorization: 'Bearer k', 'x-trace': 'a, b' },
    } satisfies PlainRequest);
  });

  it('folds the header names code before it wrote in upper case, so that an Authorization set by hand still counts', () => {
    // Node's parser gives lower-case names, but an Express middleware or a wrapping listener may add its own.
    const headers = { authorization: 'Bearer k', 'X-Trace': 'a' };
    const plain = toPlainRequest({ url: '/v1/pets', method: 'GET', headers } as never);
    expect(withFoldedHeaders(plain).headers).toEqual({ authorization: 'Bearer k', 'x-trace': 'a' });
    const lower = toPlainRequest({ url: '/v1/pets', method: 'GET', headers: { authorization: 'Bearer k' } } as never);
    expect(withFoldedHeaders(lower)).toBe(lower);
  });

  it('writes an empty body that is no streamed placeholder as an empty answer', async () => {
    const empty: PlainResponse = { status: 200, headers: { 'content-length': '0' }, body: new Uint8Array(0) };
    const plain = createHttpServer((req, res) => writeNodeResponse(req, res, empty));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('');
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});

describe('network faults written by the node:http adapter', () => {
  let origin: string;
  let server: Server;
  const answers: Record<string, PlainResponse> = {
    '/reset': { status: 500, headers: {}, fault: 'connection_reset' },
    '/empty': { status: 500, headers: {}, fault: 'empty_response' },
    '/malformed': {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-length': '10' },
      body: new TextEncoder().encode('[1,2,3,4]'),
      fault: 'malformed_response',
    },
  };
  beforeAll(async () => {
    server = createHttpServer((req, res) => writeNodeResponse(req, res, answers[req.url ?? ''] as PlainResponse));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const failure = async (path: string): Promise<string> => {
    try {
      const response = await fetch(`${origin}${path}`);
      await response.text();
    } catch (error) {
      return String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
    }
    return 'no error';
  };

  it('resets the connection before any byte for connection_reset', async () => {
    expect(await failure('/reset')).toBe('ECONNRESET');
  });

  it('closes the connection without a status line for empty_response', async () => {
    expect(await failure('/empty')).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });

  it('sends a status line and then a chunked body cut short for malformed_response', async () => {
    expect(await failure('/malformed')).toMatch(/^(UND_ERR_SOCKET|ECONNRESET|terminated)$/);
  });
});
