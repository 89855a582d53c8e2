import {
  Agent,
  createServer as createHttpServer,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { createProxy, type ProxyOptions } from '../../src/proxy/create-proxy.js';
import { sendRawRequest } from '../fuzz/support/send-raw-request.js';
import { startServer } from '../support/start-server.js';

const silent: MockLogger = { error() {}, warn() {}, info() {}, debug() {}, isLevelEnabled: () => false };
const auth = { authorization: 'Bearer upstream-key' };
const pets = JSON.stringify([{ id: 1, name: 'Bella', categoryId: 1 }]);

interface Upstream {
  url: string;
  /** The request targets the upstream received, as sent. */
  seen: string[];
  close(): Promise<void>;
}

/** An upstream on 127.0.0.1 that answers each request as `answer` says. */
async function startUpstream(answer: (response: ServerResponse, target: string) => void): Promise<Upstream> {
  const seen: string[] = [];
  const server: Server = createHttpServer((request, response) => {
    seen.push(request.url ?? '');
    answer(response, request.url ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One GET of the proxy, its target sent byte for byte. */
function send(origin: string, target: string) {
  return sendRawRequest(origin, { method: 'GET', target, headers: auth }, { agent: new Agent(), timeoutMs: 10_000 });
}

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const each of running.splice(0).reverse()) await each.close();
});

async function proxyOf(upstream: Upstream, options: Partial<ProxyOptions> = {}) {
  running.push(upstream);
  const proxy = createProxy({ upstream: upstream.url, logger: silent, ...options });
  const server = await startServer(proxy.listener);
  running.push(server);
  return { proxy, server };
}

const tomcat = "Tomcat and Spring (they cut a segment's path parameters off)";
const windows = 'Windows servers (they drop the dots and spaces that end a segment)';

describe('the proxy, before it forwards a path', () => {
  it.each([
    ['/v1/../admin', 'it holds the dot-segment ".."'],
    ['/v1/%2e%2e/admin', 'it holds the dot-segment "%2e%2e"'],
    ['/v1/%2E%2e/admin', 'it holds the dot-segment "%2E%2e"'],
    ['/v1/.%2E/admin', 'it holds the dot-segment ".%2E"'],
    ['/v1/pets/./1', 'it holds the dot-segment "."'],
    ['/v1/pets/%2e', 'it holds the dot-segment "%2e"'],
    ['/v1/..%2fadmin', 'it holds an encoded slash or backslash (%2F, %5C)'],
    ['/v1/..%2Fadmin', 'it holds an encoded slash or backslash (%2F, %5C)'],
    ['/v1/..%5Cadmin', 'it holds an encoded slash or backslash (%2F, %5C)'],
    ['/v1/..\\admin', 'it holds a backslash'],
    ['/v1//evil.test/x', 'it holds an empty segment (//)'],
    // Issue 36: the spellings Tomcat and Spring (path parameters), double-decoding upstreams, IIS and Windows read as one.
    ['/v1/..;/admin', `it holds "..;", the dot-segment ".." to ${tomcat}`],
    ['/v1/%2e%2e;/admin', `it holds "%2e%2e;", the dot-segment ".." to ${tomcat}`],
    ['/v1/..%3b/admin', `it holds "..%3b", the dot-segment ".." to ${tomcat}`],
    ['/v1/..;x=1/admin', `it holds "..;x=1", the dot-segment ".." to ${tomcat}`],
    ['/v1/.;/pets', `it holds ".;", the dot-segment "." to ${tomcat}`],
    ['/v1/;x/evil.test', `it holds ";x", an empty segment to ${tomcat}`],
    ['/v1/%252e%252e/admin', 'it holds "%252e%252e", the dot-segment ".." to an upstream that decodes twice'],
    ['/v1/%25252E%25252E/admin', 'it holds "%25252E%25252E", the dot-segment ".." to an upstream that decodes 3 times'],
    ['/v1/..%252fadmin', 'it holds an encoded slash or backslash (%2F, %5C, encoded more than once)'],
    ['/v1/%c0%ae%c0%ae/admin', 'its escapes are not UTF-8 (an overlong %C0%AE is a dot to some decoders)'],
    ['/v1/%e0%80%ae/admin', 'its escapes are not UTF-8 (an overlong %C0%AE is a dot to some decoders)'],
    ['/v1/%c0%af/admin', 'its escapes are not UTF-8 (an overlong %C0%AE is a dot to some decoders)'],
    ['/v1/%u002e%u002e/admin', 'it holds the escape "%u002e", which IIS decodes as a character (%u002e is a dot)'],
    [
      '/v1/%25u002e/admin',
      'it holds the escape "%u002e" once decoded, which IIS decodes as a character (%u002e is a dot)',
    ],
    ['/v1/pets/1%', 'it holds a % that starts no %XX escape (at "%")'],
    [
      '/v1/%ef%bc%8e%ef%bc%8e/admin',
      'it holds "%ef%bc%8e%ef%bc%8e", the dot-segment ".." to an upstream that folds Unicode (NFKC)',
    ],
    ['/v1/%e2%80%a5/admin', 'it holds "%e2%80%a5", the dot-segment ".." to an upstream that folds Unicode (NFKC)'],
    ['/v1/..%ef%bc%8fadmin', 'it holds a character Unicode folds into a slash or backslash ("/..%ef%bc%8fadmin")'],
    ['/v1/.../admin', `it holds "...", the dot-segment ".." to ${windows}`],
    ['/v1/..%20/admin', `it holds "..%20", the dot-segment ".." to ${windows}`],
    ['/v1/..%00/admin', 'it holds a NUL (%00), where some upstreams cut a path'],
  ])('refuses %s with 400 path_not_forwarded, and sends nothing upstream', async (target, reason) => {
    const upstream = await startUpstream((response) => response.end(pets));
    const { server, proxy } = await proxyOf(upstream);
    const answer = await send(server.origin, target);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    const error = JSON.parse(answer.body.toString()) as { code: string; message: string; status: number };
    expect(error).toMatchObject({ code: 'path_not_forwarded', status: 400 });
    expect(error.message).toBe(
      `the proxy does not forward GET ${target}: ${reason}, which an upstream could resolve outside /v1; nothing was sent`,
    );
    expect(upstream.seen).toEqual([]);
    expect(proxy.report.toJson().exchanges).toBe(1);
  });

  it('forwards the paths of the API as they came, a percent-encoded id included', async () => {
    const upstream = await startUpstream((response) => response.end(pets));
    const { server } = await proxyOf(upstream);
    // Dots, semicolons and escapes that no upstream reads as a dot-segment or a slash go on as they came.
    const targets = [
      '/v1/pets',
      '/v1/pets/1',
      '/v1/pets/%31',
      '/v1/pets?name=..%2F',
      '/v1/pets/caf%C3%A9',
      '/v1/pets/100%25',
      '/v1/pets/a%2525b',
      '/v1/pets;v=2',
      '/v1/pets/1.5',
      '/v1/pets/..x',
      '/v1/pets/.hidden',
    ];
    for (const target of targets) {
      const answer = await send(server.origin, target);
      expect(answer.status, target).not.toBe(400);
    }
    expect(upstream.seen).toEqual(targets);
  });
});

describe('the headers of a forwarded answer', () => {
  it('drop what the upstream’s Connection header names, and keep the rest', async () => {
    const upstream = await startUpstream((response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        connection: 'keep-alive, X-Hop-Secret',
        'x-hop-secret': 'upstream-internal',
        'x-kept': 'yes',
      });
      response.end(pets);
    });
    const { server } = await proxyOf(upstream);
    const answer = await send(server.origin, '/v1/pets');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-hop-secret']).toBeUndefined();
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.body.toString()).toBe(pets);
  });

  it('say nosniff, no framing and no script (sandbox) on every answer, beside the upstream’s own policy', async () => {
    const upstream = await startUpstream((response, target) => {
      const headers: Record<string, string> = { 'content-type': target.includes('html') ? 'text/html' : 'text/plain' };
      if (target.includes('own')) headers['content-security-policy'] = "default-src 'self'";
      response.writeHead(200, headers);
      response.end('<script>fetch("http://127.0.0.1:4010/__admin/reset", { method: "POST" })</script>');
    });
    const { server } = await proxyOf(upstream);
    for (const target of ['/v1/page.html', '/v1/sniff-me', '/v1/own.html']) {
      const answer = await send(server.origin, target);
      expect(answer.headers['x-content-type-options'], target).toBe('nosniff');
      expect(answer.headers['x-frame-options'], target).toBe('DENY');
      const policies = ([] as string[]).concat(answer.headers['content-security-policy'] ?? []).join(', ');
      expect(policies, target).toContain("sandbox; frame-ancestors 'none'");
      if (target.includes('own')) expect(policies).toContain("default-src 'self'");
    }
  });
});

describe('the answers the proxy holds to judge, all together', () => {
  it('pass an answer that does not fit beside the others on as it arrives, unjudged, and say so', async () => {
    const size = 700 * 1024;
    let releaseFirst: (() => void) | undefined;
    const upstream = await startUpstream((response, target) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(size) });
      const body = Buffer.alloc(size, target.includes('first') ? 0x61 : 0x62);
      if (target.includes('first')) {
        // All but the last byte now, the last one once the second answer is through: the first is held meanwhile.
        response.write(body.subarray(0, size - 1));
        releaseFirst = () => response.end(body.subarray(size - 1));
      } else response.end(body);
    });
    const { server, proxy } = await proxyOf(upstream, { forwarder: { maxBufferedBytes: 1024 * 1024 } });
    const first = send(server.origin, '/v1/pets?first');
    while (!releaseFirst) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await send(server.origin, '/v1/pets?second');
    expect(second.status).toBe(200);
    expect(second.body.equals(Buffer.alloc(size, 0x62))).toBe(true);
    expect(second.headers['content-length']).toBe(String(size));
    releaseFirst();
    const held = await first;
    expect(held.body.equals(Buffer.alloc(size, 0x61))).toBe(true);
    const report = proxy.report.toJson() as { deployment: { findings: Array<{ rule: string; message: string }> } };
    const unjudged = report.deployment.findings.filter((found) => found.rule === 'too-large-to-judge');
    expect(unjudged).toHaveLength(1);
    expect(unjudged[0]?.message).toMatch(
      /^the proxy already held \d+ bytes of answers, and holds at most 1 MiB at once to judge them; this answer was passed on as it came, unjudged/,
    );
    // Both written: what was held is given back, and the next answer is judged again.
    const third = await send(server.origin, '/v1/pets?third');
    expect(third.status).toBe(200);
    const after = proxy.report.toJson() as { deployment: { findings: Array<{ rule: string }> } };
    expect(after.deployment.findings.filter((found) => found.rule === 'too-large-to-judge')).toHaveLength(1);
  });

  it('cuts a streamed answer at the deadline, and lets go of the upstream', async () => {
    let upstreamClosed = false;
    const upstream = await startUpstream((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(Buffer.alloc(64 * 1024, 0x20));
      response.once('close', () => (upstreamClosed = true));
    });
    const { server } = await proxyOf(upstream, { timeoutMs: 500, forwarder: { maxBufferedBytes: 1024 } });
    const started = performance.now();
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(`${server.baseUrl}/pets`, { headers: auth, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(`ended ${res.statusCode}`));
        res.on('error', () => resolve(`cut after ${res.statusCode}`));
        res.on('close', () => resolve(`cut after ${res.statusCode}`));
      });
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.end();
    });
    expect(outcome).toBe('cut after 200');
    expect(performance.now() - started).toBeLessThan(3_000);
    await expect.poll(() => upstreamClosed, { timeout: 30_000 }).toBe(true);
  });
});
