import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { createProxy, type Proxy } from '../../src/proxy/create-proxy.js';
import { startReferenceServer, type Breakage } from '../contract/support/reference-server.js';
import { startMock, startServer, type RunningServer } from '../support/start-server.js';
import { petsIn } from '../support/kit-model.js';

const key = 'proxy-secret-key-93a1';
const auth = { Authorization: `Bearer ${key}` };
const jsonAuth = { ...auth, 'Content-Type': 'application/json' };

/** Sends a request over a socket and reads the answer as bytes (fetch would inflate gzip and normalise paths). */
function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A logger that keeps its lines, to show what the proxy logs (and that the key is never among it). */
function memoryLogger(): MockLogger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (details: object, message: string) => lines.push(JSON.stringify({ ...details, message }));
  return { lines, error: keep, warn: keep, info: keep, debug: keep, isLevelEnabled: () => true };
}

async function startProxy(upstream: string, options: Partial<Parameters<typeof createProxy>[0]> = {}) {
  const logger = memoryLogger();
  const proxy = createProxy({ upstream, logger, ...options });
  const server = await startServer(proxy.listener);
  return { proxy, server, logger };
}

describe('the validating proxy in front of the kit’s own mock', () => {
  let upstream: RunningServer;
  let proxied: { proxy: Proxy; server: RunningServer; logger: ReturnType<typeof memoryLogger> };
  beforeAll(async () => {
    upstream = await startMock({ keys: [key], scenario: 'edge-cases' });
    proxied = await startProxy(upstream.baseUrl);
  });
  afterAll(async () => {
    await proxied.server.close();
    await upstream.close();
  });

  it('passes a valid exchange on byte for byte, with no violation', async () => {
    const direct = await send(`${upstream.baseUrl}/pets?limit=100`, { headers: auth });
    const through = await send(`${proxied.server.baseUrl}/pets?limit=100`, { headers: auth });
    expect(through.status).toBe(direct.status);
    expect(through.body.equals(direct.body)).toBe(true);
    expect(through.body.toString()).toContain('"categoryId":9007199254740991');
    expect(through.headers['content-type']).toBe('application/json');
    expect(through.headers['petstore-violations']).toBeUndefined();
  });

  it("forwards an invalid request unchanged, reports it as the client's, and only observes the answer", async () => {
    const through = await send(`${proxied.server.baseUrl}/pets?limit=0`, { headers: auth });
    expect(through.status).toBe(400);
    expect(JSON.parse(through.body.toString())).toMatchObject({ code: 'invalid_parameter' });
    expect(through.headers['petstore-violations']).toBe('1');
    const report = proxied.proxy.report.toJson();
    expect(report.client.findings.at(-1)).toMatchObject({
      side: 'request',
      level: 'fail',
      rule: 'request-parameters',
      operationId: 'listPets',
      request: 'GET /v1/pets?limit=0',
    });
    // The spec leaves the answer to an out-of-range limit open: observed, never the deployment's failure.
    expect(report.deployment.findings.at(-1)).toMatchObject({ rule: 'open-input', level: 'observed', status: 400 });
    expect(report.failed).toBe(false);
  });

  it('passes malformed JSON, an id beyond 2^53 and non-ASCII through as they are, without hanging', async () => {
    const malformed = await send(`${proxied.server.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: '{"name": "Rex",',
    });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ code: 'invalid_json' });
    const created = await send(`${proxied.server.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: '{"name":"Zoë 小白 🐶","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    expect(created.body.toString()).toBe(
      '{"id":9007199254740001,"name":"Zoë 小白 🐶","categoryId":9223372036854775807}',
    );
    expect(created.headers['petstore-violations']).toBeUndefined();
  });

  it("forwards paths the document does not have, and reports them as the client's", async () => {
    const through = await send(`${proxied.server.baseUrl}/orders`, { headers: auth });
    expect(through.status).toBe(404);
    expect(through.headers['petstore-violations']).toBe('1');
    expect(proxied.proxy.report.toJson().client.findings.at(-1)).toMatchObject({
      rule: 'request-operation',
      operationId: undefined,
    });
  });

  it('serves the report at /__admin/violations, with its coverage', async () => {
    const response = await fetch(`${proxied.server.origin}/__admin/violations`, {
      headers: { Authorization: 'Bearer dev-key' },
    });
    const report = (await response.json()) as {
      upstream: string;
      coverage: Array<{ operationId: string; status: string; count: number; documented: boolean }>;
    };
    expect(report.upstream).toBe(`${upstream.baseUrl}`);
    expect(report.coverage).toContainEqual({ operationId: 'listPets', status: '200', documented: true, count: 1 });
    expect(report.coverage).toContainEqual({ operationId: 'getPet', status: '404', documented: true, count: 0 });
    expect(report.coverage).toContainEqual({ operationId: 'listPets', status: '400', documented: false, count: 1 });
  });

  it('never logs or reports the key', () => {
    expect(proxied.logger.lines.join('\n')).not.toContain(key);
    expect(JSON.stringify(proxied.proxy.report.toJson())).not.toContain(key);
    expect(proxied.proxy.report.toJunit()).not.toContain(key);
  });
});

describe('the validating proxy in front of independent deployments', () => {
  it('finds no violation in a correct deployment that differs (charset=utf-8)', async () => {
    const reference = await startReferenceServer({ token: key, charset: true });
    const { proxy, server } = await startProxy(reference.baseUrl);
    try {
      for (const path of ['/pets', '/pets?limit=5&status=sold', '/pets/1', '/pets/999999']) {
        await send(`${server.baseUrl}${path}`, { headers: auth });
      }
      await send(`${server.baseUrl}/pets`, { headers: {} });
      await send(`${server.baseUrl}/pets`, { method: 'POST', headers: jsonAuth, body: '{"name":"Ok","categoryId":1}' });
      const report = proxy.report.toJson();
      expect(report.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
      expect(report.client.findings.map((found) => found.rule)).toEqual(['request-credentials']);
      expect(report.failed).toBe(false);
    } finally {
      await server.close();
      await reference.close();
    }
  });

  it.each<[Breakage, string, string]>([
    ['html-404', 'GET /pets/999999', 'media-type'],
    ['text-plain-success', 'GET /pets', 'media-type'],
    ['invalid-pet-in-list', 'GET /pets', 'schema'],
    ['error-status-mismatch', 'GET /pets/999999', 'error-status'],
    ['malformed-401-body', 'GET /pets (no key)', 'schema'],
    ['unknown-id-410', 'GET /pets/999999', 'documented-status'],
    ['create-returns-200', 'POST /pets', 'documented-status'],
  ])('flags a deployment that %s with the rule it breaks (%s → %s)', async (breakage, what, rule) => {
    const reference = await startReferenceServer({ token: key, breakage });
    const { proxy, server } = await startProxy(reference.baseUrl);
    try {
      const [method = 'GET', target = ''] = what.split(' ');
      const withoutKey = what.includes('no key');
      const direct = await send(`${reference.baseUrl}${target}`, {
        method,
        headers: withoutKey ? {} : method === 'POST' ? jsonAuth : auth,
        ...(method === 'POST' ? { body: '{"name":"Rex","categoryId":1}' } : {}),
      });
      const through = await send(`${server.baseUrl}${target}`, {
        method,
        headers: withoutKey ? {} : method === 'POST' ? jsonAuth : auth,
        ...(method === 'POST' ? { body: '{"name":"Rex","categoryId":1}' } : {}),
      });
      expect(through.status).toBe(direct.status);
      if (method === 'GET') expect(through.body.equals(direct.body)).toBe(true);
      expect(Number(through.headers['petstore-violations'])).toBeGreaterThan(0);
      const report = proxy.report.toJson();
      expect(report.deployment.findings.filter((found) => found.level === 'fail').map((found) => found.rule)).toContain(
        rule,
      );
      expect(report.failed).toBe(true);
    } finally {
      await server.close();
      await reference.close();
    }
  });
});

describe('the proxy with --enforce', () => {
  let upstream: Awaited<ReturnType<typeof startReferenceServer>>;
  let proxied: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    upstream = await startReferenceServer({ token: key, breakage: 'invalid-pet-in-list' });
    proxied = await startProxy(upstream.baseUrl, { enforce: true });
  });
  afterAll(async () => {
    await proxied.server.close();
    await upstream.close();
  });

  it('refuses an invalid request with the mock’s own 400 and does not forward it', async () => {
    const before = upstream.requestCount();
    const response = await send(`${proxied.server.baseUrl}/pets?limit=1000`, { headers: auth });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString())).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(upstream.requestCount()).toBe(before);
  });

  it('replaces an answer that breaks the document with 502 upstream_violation naming it', async () => {
    const response = await send(`${proxied.server.baseUrl}/pets`, { headers: auth });
    expect(response.status).toBe(502);
    const body = JSON.parse(response.body.toString()) as { code: string; message: string };
    expect(body.code).toBe('upstream_violation');
    expect(body.message).toContain("response field '[0].categoryId' must be integer");
  });
});

describe('the proxy when the upstream fails', () => {
  it('passes an upstream 5xx (501 included) through as it came, and flags it', async () => {
    const upstream = createServer((_req, res) => {
      res
        .writeHead(501, { 'content-type': 'application/json' })
        .end('{"code":"nope","message":"not here","status":501}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { proxy, server } = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`);
    try {
      const response = await send(`${server.baseUrl}/pets`, { headers: auth });
      expect(response.status).toBe(501);
      expect(response.body.toString()).toBe('{"code":"nope","message":"not here","status":501}');
      expect(proxy.report.toJson().deployment.findings).toMatchObject([
        { rule: 'documented-status', level: 'fail', status: 501 },
      ]);
    } finally {
      await server.close();
      upstream.close();
    }
  });

  it('answers 502 upstream_unreachable naming the problem when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { server } = await startProxy(`http://127.0.0.1:${port}/v1`);
    try {
      const response = await send(`${server.baseUrl}/pets`, { headers: auth });
      expect(response.status).toBe(502);
      expect(JSON.parse(response.body.toString())).toMatchObject({
        code: 'upstream_unreachable',
        message: `the upstream http://127.0.0.1:${port} cannot be reached: ECONNREFUSED`,
      });
    } finally {
      await server.close();
    }
  });

  it('reaches an upstream at an IPv6 address, connecting to it without the brackets of its URL', async (context) => {
    const mock = createNodeMock({ keys: [key] });
    const v6 = createServer(createNodeListener(mock));
    const listening = await new Promise<boolean>((resolve) => {
      v6.once('error', () => resolve(false));
      v6.listen(0, '::1', () => resolve(true));
    });
    if (!listening) context.skip('this machine has no IPv6 loopback');
    const port = (v6.address() as AddressInfo).port;
    const { server, proxy } = await startProxy(`http://[::1]:${port}/v1`);
    try {
      const response = await send(`${server.baseUrl}/pets?limit=2`, { headers: auth });
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body.toString())).toHaveLength(2);
      expect(proxy.report.toJson().deployment.fail).toBe(0);
    } finally {
      await server.close();
      await new Promise<void>((resolve) => v6.close(() => resolve()));
    }
  });

  it('closes an idle connection to the upstream before the upstream says it will, and opens a new one', async () => {
    // The upstream announces `Keep-Alive: timeout=2`: a connection kept past it would race the upstream's close.
    const mock = createNodeMock({ keys: [key] });
    const upstreamServer = createServer(createNodeListener(mock));
    upstreamServer.keepAliveTimeout = 2000;
    let connections = 0;
    upstreamServer.on('connection', () => connections++);
    await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
    const port = (upstreamServer.address() as AddressInfo).port;
    const { server } = await startProxy(`http://127.0.0.1:${port}/v1`);
    try {
      expect((await send(`${server.baseUrl}/pets?limit=1`, { headers: auth })).status).toBe(200);
      // At once, the same connection serves again.
      expect((await send(`${server.baseUrl}/pets?limit=1`, { headers: auth })).status).toBe(200);
      expect(connections).toBe(1);
      // 1.5 s later, within the upstream's 2 s but past the proxy's 1 s: a new connection.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await send(`${server.baseUrl}/pets?limit=1`, { headers: auth })).status).toBe(200);
      expect(connections).toBe(2);
    } finally {
      await server.close();
      upstreamServer.closeAllConnections();
      await new Promise<void>((resolve) => upstreamServer.close(() => resolve()));
    }
  });

  it('answers 504 upstream_timeout when the upstream stays silent', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { server } = await startProxy(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`, {
      timeoutMs: 200,
    });
    try {
      const response = await send(`${server.baseUrl}/pets`, { headers: auth });
      expect(response.status).toBe(504);
      expect(JSON.parse(response.body.toString())).toMatchObject({ code: 'upstream_timeout', status: 504 });
    } finally {
      await server.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('passes a gzip body on as gzip, and judges what it holds', async () => {
    const pets = '[{"id":9223372036854775807,"name":"Zipped","categoryId":1}]';
    const zipped = gzipSync(pets);
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zipped);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { proxy, server } = await startProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`);
    try {
      const response = await send(`${server.baseUrl}/pets`, { headers: auth });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.body.equals(zipped)).toBe(true);
      expect(proxy.report.toJson().deployment.findings).toEqual([]);
    } finally {
      await server.close();
      upstream.close();
    }
  });
});

describe('recording (--record)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-record-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('turns the pets of valid answers into a scenario the mock serves, ids beyond 2^53 exactly', async () => {
    const upstream = await startMock({ keys: [key], scenario: 'edge-cases' });
    const file = join(dir, 'staging.yaml');
    const { proxy, server } = await startProxy(upstream.baseUrl, { record: file });
    try {
      await send(`${server.baseUrl}/pets?limit=100`, { headers: auth });
      await send(`${server.baseUrl}/pets/1`, { headers: auth });
      await send(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: jsonAuth,
        body: '{"name":"Recorded","categoryId":-9223372036854775808,"status":"sold"}',
      });
      const summary = proxy.recording?.save();
      expect(summary).toMatchObject({ file, recorded: 13, notRecorded: [] });
      const served = createNodeMock({ scenario: file });
      expect(petsIn(served.store).size).toBe(13);
      expect(petsIn(served.store).get(9007199254740000)?.name).toBe('Big Id');
      expect(petsIn(served.store).get(9007199254740001)).toMatchObject({
        name: 'Recorded',
        categoryId: -9223372036854775808n,
      });
    } finally {
      await server.close();
      await upstream.close();
    }
  });

  it('lists what it did not record, and why', async () => {
    const upstream = await startReferenceServer({ token: key, breakage: 'invalid-pet-in-list' });
    const file = join(dir, 'broken.json');
    const { proxy, server } = await startProxy(upstream.baseUrl, { record: file });
    try {
      await send(`${server.baseUrl}/pets`, { headers: auth });
      await send(`${server.baseUrl}/pets/1`, { headers: auth });
      const summary = proxy.recording?.save();
      expect(summary?.notRecorded).toEqual([
        { reason: 'the answer breaks the document (see the findings)', count: 1, example: 'GET /v1/pets' },
      ]);
      expect(summary?.recorded).toBe(1);
      expect(JSON.parse(readFileSync(file, 'utf8')).pets).toHaveLength(1);
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
