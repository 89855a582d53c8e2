import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner, type Cli } from '../cli/start-cli.js';
import { noRedisServer, requireRedisServer, startRedisServer, type RedisServer } from '../support/redis-server.js';

// The Redis server's password reaches no output of the mock: not the banner, the log (at debug), an Error body,
// the health answer, the journal, the session listing or a refusal, while the server answers, while it is
// down, and when the password is wrong. Every byte the mock printed or answered is searched for it.

const password = 'Tr0ub4dor&3-not-for-logs';
const encoded = encodeURIComponent(password);
const key = 'dev-key';
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

describe.skipIf(noRedisServer !== undefined)('the Redis store’s password', () => {
  let server: RedisServer;
  const seen: string[] = [];

  beforeAll(async () => {
    server = await startRedisServer({ password });
  });
  afterAll(async () => {
    killRunningClis();
    await server?.close();
  });

  async function answer(url: string, init: RequestInit = {}): Promise<number> {
    const response = await fetch(url, { headers, ...init });
    seen.push(`${url} ${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`);
    return response.status;
  }

  async function stopped(cli: Cli): Promise<void> {
    cli.child.kill('SIGTERM');
    await cli.exited;
    seen.push(cli.stdout(), cli.stderr());
  }

  it('appears in no banner, log line, answer, health or journal of a replica, up or down', async () => {
    expect(server.url).toContain(encoded);
    const cli = startCli(['--port', '0', '--log-level', 'debug', '--log-format', 'json', '--store', server.url]);
    const origin = new URL(await waitForBanner(cli)).origin;
    expect(cli.stdout()).toContain(`Store      redis://127.0.0.1:${server.port} (prefix petstore)`);
    expect(await answer(`${origin}/v1/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":1}' })).toBe(201);
    expect(await answer(`${origin}/v1/pets/1`)).toBe(200);
    expect(await answer(`${origin}/__admin/faults`, { method: 'POST', body: '{"status":503}' })).toBe(200);
    expect(await answer(`${origin}/v1/pets/1`)).toBe(503);
    for (const path of ['health', 'requests', 'sessions', 'faults', 'store', 'scenarios', 'latency', 'clock']) {
      expect(await answer(`${origin}/__admin/${path}`)).toBe(200);
    }
    await server.stop();
    expect(await answer(`${origin}/v1/pets/1`)).toBe(503);
    expect(await answer(`${origin}/__admin/health`)).toBe(503);
    expect(await answer(`${origin}/__admin/requests`)).toBe(503);
    await server.start();
    await expect.poll(() => answer(`${origin}/__admin/health`), { timeout: 15_000 }).toBe(200);
    expect(await answer(`${origin}/__admin/requests`)).toBe(200);
    await stopped(cli);
    // The log did say what happened: the server lost, and found again.
    expect(cli.stdout()).toContain('the Redis store cannot be reached');
    expect(cli.stdout()).toContain('the Redis store answers');
    const everything = seen.join('\n');
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(encoded);
  });

  it('appears in no output when it is wrong, or the URL is refused', async () => {
    const wrong = server.url.replace(encoded, encodeURIComponent('wrong-secret-9f2c'));
    const cli = startCli(['--port', '0', '--log-format', 'json', '--store', wrong, '--store-timeout', '300']);
    const origin = new URL(await waitForBanner(cli)).origin;
    expect(cli.stdout()).toContain('not answering since');
    expect(await answer(`${origin}/v1/pets`)).toBe(503);
    expect(await answer(`${origin}/__admin/health`)).toBe(503);
    await stopped(cli);
    const refused = startCli(['--store', server.url.replace('127.0.0.1', '127.0.0.1/a')]);
    expect(await refused.exited).toBe(2);
    seen.push(refused.stdout(), refused.stderr());
    const everything = seen.join('\n');
    for (const secret of [password, encoded, 'wrong-secret-9f2c']) expect(everything).not.toContain(secret);
  });

  it('runs against a Redis server in CI', () => requireRedisServer());
});
