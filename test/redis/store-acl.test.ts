import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedMock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { engineLibrary } from '../../src/redis/engine-library.js';
import { redisCall } from '../support/redis-call.js';
import { noRedisServer, requireRedisServer, startRedisServer, type RedisServer } from '../support/redis-server.js';

// docs/security.md gives an operator the ACL user the kit needs on a Redis server: every command the kit's Lua
// library runs is in it, and a mock connected as that user (and nothing more) serves requests, faults, the
// journal, sessions, scenario switches and health, and comes back after the server restarts.

/** The rules of the documented `redis-cli ACL SETUSER petstore …` command, its lines joined and quotes taken off. */
const documented = (() => {
  const text = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  const command = /^\s*redis-cli ACL SETUSER petstore (?:.*\\\n)*.*$/m.exec(text)?.[0];
  if (!command) throw new Error('docs/security.md gives no redis-cli ACL SETUSER command for the kit');
  return command.replace(/\\\n/g, ' ').replace(/'/g, '').trim().split(/\s+/).slice(1).join(' ');
})();
const password = 'acl-test-password';
const key = 'test-key';

/** The documented rules as `redis-server --user …` arguments, with a password, less any commands named. */
function userArgs(without: readonly string[] = []): string[] {
  const [, , name, ...rules] = documented.replace('CHANGE-ME', password).split(/\s+/);
  return ['--user', name as string, ...rules.filter((rule) => !without.includes(rule))];
}

describe('the ACL user docs/security.md gives the kit', () => {
  it('allows every command the Lua library runs', () => {
    const allowed = new Set(
      documented
        .split(/\s+/)
        .filter((rule) => rule.startsWith('+'))
        .map((rule) => rule.slice(1)),
    );
    const called = new Set(
      [...engineLibrary.source.matchAll(/redis\.call\('([A-Z]+)'/g)].map((m) => m[1]?.toLowerCase()),
    );
    expect(called.size).toBeGreaterThan(20);
    expect([...called].filter((command) => command && !allowed.has(command))).toEqual([]);
    expect(documented).toContain('-@all');
    expect(documented).toContain('~{petstore}*');
  });

  it('is shown against a Redis server in CI', () => requireRedisServer());
});

describe.skipIf(noRedisServer !== undefined)('a mock connected as the documented ACL user', () => {
  let server: RedisServer | undefined;
  let mock: SharedMock | undefined;
  const logged: string[] = [];
  const note = (details: object, message: string) => void logged.push(`${message} ${JSON.stringify(details)}`);
  const logger = { error: note, warn: note, info: note, debug: note };

  afterEach(async () => {
    await mock?.close();
    await server?.close();
    mock = undefined;
    server = undefined;
  });

  async function open(without: readonly string[] = []): Promise<SharedMock> {
    server = await startRedisServer({ args: userArgs(without) });
    mock = createNodeMock({
      store: `redis://petstore:${password}@127.0.0.1:${server.port}`,
      keys: [key],
      logger,
    });
    await mock.ready;
    return mock;
  }

  it('serves requests, faults, the journal, sessions, scenarios and health, and recovers from a restart', async () => {
    const kit = await open();
    const created = await redisCall(kit, key, '/v1/pets', { method: 'POST', body: { name: 'Rex', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect((await redisCall(kit, key, `/v1/pets/${String(created.body?.id)}`)).status).toBe(200);
    expect((await redisCall(kit, key, '/v1/pets?status=available&limit=5')).status).toBe(200);
    expect((await redisCall(kit, key, '/__admin/faults', { method: 'POST', body: { status: 503 } })).status).toBe(200);
    expect((await redisCall(kit, key, '/v1/pets/1')).status).toBe(503);
    expect((await redisCall(kit, key, '/v1/pets/1', { session: 'qa-1' })).status).toBe(200);
    expect(
      (await redisCall(kit, key, '/__admin/scenario', { method: 'POST', body: { name: 'large' }, session: 'qa-1' }))
        .status,
    ).toBe(200);
    const sessions = await redisCall(kit, key, '/__admin/sessions');
    expect(sessions.status).toBe(200);
    expect(JSON.stringify(sessions.body)).toContain('qa-1');
    await expect
      .poll(
        async () => ((await redisCall(kit, key, '/__admin/requests')).body?.requests as unknown[] | undefined)?.length,
      )
      .toBeGreaterThanOrEqual(3);
    expect((await redisCall(kit, key, '/__admin/reset', { method: 'POST' })).status).toBe(200);
    const health = await redisCall(kit, key, '/__admin/health');
    expect(health.status).toBe(200);
    // CONFIG is not the kit's: what the server keeps across a restart comes from INFO persistence.
    expect(logged.join('\n')).toContain('CONFIG is refused) and keeps no append-only file');
    // A restart without persistence loses the library and the scenarios: the kit loads and writes them again.
    await server?.stop();
    await server?.start();
    await expect
      .poll(async () => (await redisCall(kit, key, '/v1/pets?limit=1')).status, { timeout: 15_000 })
      .toBe(200);
    expect(
      (await redisCall(kit, key, '/v1/pets', { method: 'POST', body: { name: 'Again', categoryId: 1 } })).status,
    ).toBe(201);
  });

  it('fails a create with an Error body when the user lacks a command the library runs', async () => {
    const kit = await open(['+zadd']);
    const refused = await redisCall(kit, key, '/v1/pets', { method: 'POST', body: { name: 'Rex', categoryId: 1 } });
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(refused.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});
