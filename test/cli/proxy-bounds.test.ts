import { createServer as createHttpServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForProxyBanner } from './start-cli.js';

const auth = { authorization: 'Bearer upstream-key' };

interface Upstream {
  url: string;
  seen: string[];
  close(): Promise<void>;
}

async function startUpstream(answer: (response: ServerResponse, target: string) => void): Promise<Upstream> {
  const seen: string[] = [];
  const server: Server = createHttpServer((request, response) => {
    seen.push(request.url ?? '');
    answer(response, request.url ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A GET through the proxy with its target sent as it is; resolves with the status, headers and body length. */
function get(origin: string, target: string, onHead?: () => void) {
  const { hostname, port } = new URL(origin);
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    bytes: number;
    text: string;
  }>((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: target, headers: auth, agent: false }, (res) => {
      onHead?.();
      let bytes = 0;
      let text = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (text.length < 4096) text += chunk.toString('latin1', 0, Math.min(chunk.length, 4096));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('petstore-mock proxy, as a user starts it', () => {
  const upstreams: Upstream[] = [];
  afterEach(async () => {
    killRunningClis();
    for (const upstream of upstreams.splice(0)) await upstream.close();
  });
  const startProxy = async (upstream: Upstream) => {
    upstreams.push(upstream);
    const cli = startCli(['proxy', '--upstream', upstream.url, '--port', '0', '--log-level', 'silent']);
    const base = await waitForProxyBanner(cli);
    return { cli, origin: new URL(base).origin };
  };

  it('refuses paths that could leave /v1 upstream, 400 path_not_forwarded, and sends nothing', async () => {
    const upstream = await startUpstream((response) => response.end('[]'));
    const { origin } = await startProxy(upstream);
    for (const target of ['/v1/../admin', '/v1/%2e%2e/admin', '/v1/..%2fadmin', '/v1//evil.test/x']) {
      const answer = await get(origin, target);
      expect(answer.status, target).toBe(400);
      expect(JSON.parse(answer.text), target).toMatchObject({ code: 'path_not_forwarded', status: 400 });
    }
    expect(upstream.seen).toEqual([]);
    expect((await get(origin, '/v1/pets')).status).toBe(200);
    expect(upstream.seen).toEqual(['/v1/pets']);
  });

  it('passes an upstream page on with nosniff, no framing and a sandbox, and without the headers its Connection names', async () => {
    const upstream = await startUpstream((response) => {
      response.writeHead(200, { 'content-type': 'text/html', connection: 'x-internal', 'x-internal': 'secret' });
      response.end('<script>fetch("http://127.0.0.1:4010/__admin/reset", { method: "POST" })</script>');
    });
    const { origin } = await startProxy(upstream);
    const answer = await get(origin, '/v1/pets');
    expect(answer.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "sandbox; frame-ancestors 'none'",
    });
    expect(answer.headers['x-internal']).toBeUndefined();
    // Its own pages may not be framed either.
    const page = await fetch(`${origin}/__admin/ui`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
  });

  it.runIf(existsSync('/proc/self/status'))(
    'holds at most 256 MiB of answers at once: those beyond are passed on as they come, unjudged, and reported',
    async () => {
      const size = 56 * 1024 * 1024;
      const count = 8;
      const most = Buffer.alloc(size - 1, 0x20);
      const waiting: Array<() => void> = [];
      const upstream = await startUpstream((response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(size) });
        // All but the last byte; the last once every answer has started, so that the proxy holds them all meanwhile.
        response.write(most);
        waiting.push(() => response.end(' '));
      });
      const { cli, origin } = await startProxy(upstream);
      let heads = 0;
      const answers = Array.from({ length: count }, (_, index) => get(origin, `/v1/pets?n=${index}`, () => heads++));
      // 448 MiB are on their way: the answers that do not fit in 256 MiB start through before their last byte.
      while (heads < 1 || waiting.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const release of waiting) release();
      const done = await Promise.all(answers);
      expect(done.map((answer) => [answer.status, answer.bytes])).toEqual(
        Array.from({ length: count }, () => [200, size]),
      );
      const report = (await (
        await fetch(`${origin}/__admin/violations`, { headers: { Authorization: 'Bearer dev-key' } })
      ).json()) as { deployment: { findings: Array<{ rule: string; message: string }> } };
      const beyond = report.deployment.findings.filter((found) =>
        found.message.includes('holds at most 256 MiB at once to judge them'),
      );
      expect(beyond.length).toBeGreaterThanOrEqual(1);
      expect(beyond.every((found) => found.rule === 'too-large-to-judge')).toBe(true);
      // The proxy's peak memory: its answers held, not the 448 MiB sent (and their copies), plus Node itself.
      const peak = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${cli.child.pid}/status`, 'utf8'))?.[1]) * 1024;
      expect(peak).toBeLessThan(600 * 1024 * 1024);
    },
    60_000,
  );
});
