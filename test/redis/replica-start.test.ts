import { afterEach, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner, type Cli } from '../cli/start-cli.js';
import { noRedisServer, requireRedisServer, startRedisServer, type RedisServer } from '../support/redis-server.js';

// A replica started as a platform team starts it (petstore-mock --store redis://…): what it says at start about
// the server it shares, whether that server keeps anything across its own restart, and what it does when the
// server is not there yet.

const key = 'dev-key';
const auth = { authorization: `Bearer ${key}` };

const servers: RedisServer[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const started = await startRedisServer(options);
  servers.push(started);
  return started;
}

async function replica(args: string[]): Promise<{ cli: Cli; origin: string }> {
  const cli = startCli(['--port', '0', '--log-format', 'json', ...args]);
  return { cli, origin: new URL(await waitForBanner(cli)).origin };
}

/** Stops the replica and resolves once its output is all read, so stderr is complete. */
async function stopped(cli: Cli): Promise<void> {
  cli.child.kill('SIGTERM');
  await cli.exited;
}

it('has a Redis server to run against (CI must)', () => requireRedisServer());

describe.skipIf(noRedisServer !== undefined)('a replica on a Redis store, at start', () => {
  it('warns on standard error when its server keeps nothing across a restart, naming what to set', async () => {
    const bare = await server();
    const { cli } = await replica(['--store', bare.url]);
    expect(cli.stdout()).toContain('keeps nothing across a restart');
    // stdout and stderr are two pipes: the banner can be read before the warning is. Read both to their end.
    await stopped(cli);
    expect(cli.stderr()).toContain('petstore-mock: warning: ');
    expect(cli.stderr()).toContain('appendonly yes');
    expect(cli.stderr()).toContain('docs/persistence.md');
  });

  it('gives no such warning when its server keeps an append-only file, and says what it keeps', async () => {
    const kept = await server({ persistent: true });
    const { cli } = await replica(['--store', kept.url]);
    expect(cli.stdout()).toContain('append-only file');
    await stopped(cli);
    expect(cli.stderr()).not.toContain('warning');
  });

  it('starts while its server is down, says so, answers 503 store_unavailable, and serves once it is up, without a restart', async () => {
    const later = await server();
    await later.stop();
    const { cli, origin } = await replica(['--store', later.url, '--store-timeout', '500']);
    expect(cli.stdout()).toContain('not answering since');
    expect(cli.stdout()).toContain('the mock keeps trying');
    const refused = await fetch(`${origin}/v1/pets`, { headers: auth });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'store_unavailable', status: 503 });
    const health = await fetch(`${origin}/__admin/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ code: 'store_unavailable' });
    await later.start();
    // It reconnects by itself: wait for that event (its health), not for the clock.
    await expect
      .poll(async () => (await fetch(`${origin}/__admin/health`)).status, { timeout: 15_000, interval: 100 })
      .toBe(200);
    expect((await fetch(`${origin}/v1/pets?limit=2`, { headers: auth })).status).toBe(200);
    await stopped(cli);
    expect(cli.stdout()).toContain('the Redis store answers');
  });
});
