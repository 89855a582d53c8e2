import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SharedMock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { ItemCache } from '../../src/redis/item-cache.js';
import { redisCall } from '../support/redis-call.js';
import { noRedisServer, requireRedisServer, startRedisServer, type RedisServer } from '../support/redis-server.js';

// createMock({ store: 'redis://…' }) in-process: the calls of the memory mock under the same names, each a
// promise (AsyncSessionApi), refused as the admin API refuses them, and two such mocks on one server acting as
// one mock.

const key = 'test-key';
let server: RedisServer;
let prefixes = 0;
const open: SharedMock[] = [];

async function sharedMock(prefix = `shared-${process.pid}-${++prefixes}`, options = {}): Promise<SharedMock> {
  const mock = createNodeMock({ store: server.url, storePrefix: prefix, keys: [key], ...options });
  open.push(mock);
  await mock.ready;
  return mock;
}

describe.skipIf(noRedisServer !== undefined)('a mock on a Redis store, in-process', () => {
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const mock of open) await mock.close();
    await server?.close();
  });

  it('is a shared mock, typed apart: its calls return promises', async () => {
    const mock = await sharedMock();
    expect(mock.shared).toBe(true);
    expect(mock.scenario()).toBeInstanceOf(Promise);
    expect(await mock.scenario()).toBe('default');
    expect(await mock.state()).toEqual({ scenario: 'default', pets: 50 });
  });

  it('schedules a fault the next matching request gets once, and lists and clears them, as the admin API does', async () => {
    const mock = await sharedMock();
    expect(await mock.scheduleFault({ operationId: 'listPets', status: 500 })).toEqual({
      id: 1,
      operationId: 'listPets',
      status: 500,
      times: 1,
    });
    expect(await mock.faults()).toHaveLength(1);
    expect(await redisCall(mock, key, '/v1/pets')).toMatchObject({ status: 500, body: { code: 'injected_fault' } });
    expect((await redisCall(mock, key, '/v1/pets')).status).toBe(200);
    await mock.scheduleFault({ status: 503, times: 4 });
    expect(await mock.clearFaults()).toBe(1);
    expect(await mock.faults()).toEqual([]);
  });

  it('refuses what the admin API refuses, with the same code, and schedules nothing', async () => {
    const mock = await sharedMock();
    await expect(mock.scheduleFault({ status: 700 })).rejects.toMatchObject({ code: 'invalid_fault', status: 400 });
    await expect(mock.scheduleFault({ operationId: 'nothing', status: 500 })).rejects.toMatchObject({
      code: 'invalid_fault',
    });
    await expect(mock.setLatency({ min: 50, max: 10 })).rejects.toMatchObject({ code: 'invalid_body' });
    await expect(mock.setNow('2030-02-31')).rejects.toMatchObject({ code: 'invalid_body' });
    await expect(mock.switchScenario('nowhere')).rejects.toMatchObject({ code: 'scenario_not_found', status: 404 });
    for (let count = 0; count < 100; count++) await mock.scheduleFault({ status: 503, times: 5 });
    await expect(mock.scheduleFault({ status: 503 })).rejects.toMatchObject({
      code: 'too_many_faults',
      message: expect.stringContaining('already has 100 faults') as unknown,
    });
    expect(await mock.clearFaults()).toBe(100);
  });

  it('sets latency and the clock, reads them back, and undoes them all with reset()', async () => {
    const mock = await sharedMock(undefined, { latency: { min: 1, max: 2 } });
    expect(await mock.setLatency({ min: 10, max: 40 })).toEqual({ min: 10, max: 40 });
    expect(await mock.latency()).toEqual({ min: 10, max: 40 });
    await mock.setNow('2030-12-06');
    expect(new Date(await mock.now()).toISOString().slice(0, 10)).toBe('2030-12-06');
    expect((await redisCall(mock, key, '/v1/pets/1')).status).toBe(410);
    await mock.switchScenario('empty');
    await mock.scheduleFault({ status: 500 });
    expect(await mock.reset()).toEqual({ scenario: 'default', pets: 50 });
    expect(await mock.latency()).toEqual({ min: 1, max: 2 });
    expect(await mock.faults()).toEqual([]);
    expect(Math.abs((await mock.now()) - Date.now())).toBeLessThan(60_000);
    expect((await mock.scheduleFault({ status: 500 })).id).toBe(1);
  });

  it('reads items and the journal as calls: redacted, exact, without using a fault', async () => {
    const mock = await sharedMock();
    await redisCall(mock, key, '/v1/pets', { method: 'POST', body: { name: 'Rex', categoryId: 1, status: 'sold' } });
    await mock.scheduleFault({ status: 500 });
    const view = await mock.items('pets', { limit: 2, filters: { status: 'sold' } });
    expect(view.size).toBe(51);
    expect(view.items.every((item) => item.status === 'sold')).toBe(true);
    expect(await mock.faults()).toHaveLength(1);
    // Every collection by its name, none by default: a name the document does not have is refused, naming them.
    await expect(mock.items('owners')).rejects.toThrow("the store has no collection 'owners' (collections: pets)");
    const journal = await mock.journal();
    expect(journal.requests).toHaveLength(1);
    expect(journal.requests[0]).toMatchObject({ method: 'POST', status: 201 });
    expect(journal.requests[0]?.headers.authorization).toBe('Bearer [redacted]');
    expect(await mock.clearJournal()).toBe(1);
  });

  it('acts on one session only through mock.session(name), and lists and drops sessions', async () => {
    const mock = await sharedMock();
    const w2 = mock.session('w2');
    expect(w2.name).toBe('w2');
    await w2.scheduleFault({ status: 503 });
    expect(await mock.faults()).toEqual([]);
    expect((await redisCall(mock, key, '/v1/pets')).status).toBe(200);
    expect((await redisCall(mock, key, '/v1/pets', { session: 'w2' })).status).toBe(503);
    expect((await mock.sessions()).sessions.map((each) => each.name)).toEqual(['default', 'w2']);
    expect(await mock.dropSession('w2')).toBe(true);
    expect(await mock.dropSession('w2')).toBe(false);
  });

  it('refuses to start on a scenario larger than a session may hold, as the memory store does', async () => {
    const mock = createNodeMock({ store: server.url, storePrefix: `too-big-${++prefixes}`, keys: [key], maxPets: 10 });
    await expect(mock.ready).rejects.toMatchObject({ code: 'store_full' });
    expect((await redisCall(mock, key, '/v1/pets')).body).toMatchObject({ code: 'mock_failed' });
  });

  it('refuses a store it does not know, without showing what may be its password', () => {
    expect(() => createNodeMock({ store: 'memcached://:hunter2@host' })).toThrow(
      "the store is 'memory' or the URL of a Redis or Valkey server (redis://[:password@]host[:port][/db], rediss:// for TLS), not memcached://host",
    );
  });

  it('sends a list it has answered at the store’s revision without reading its items, and never once another replica wrote', async () => {
    const prefix = `answered-${process.pid}`;
    const [one, two] = [await sharedMock(prefix), await sharedMock(prefix)];
    const session = 'answered-reads';
    const first = await redisCall<unknown[]>(one, key, '/v1/pets?limit=100', { session });
    const decoded = vi.spyOn(ItemCache.prototype, 'item');
    expect(await redisCall(one, key, '/v1/pets?limit=100', { session })).toEqual(first);
    expect(decoded).not.toHaveBeenCalled();
    const made = await redisCall(two, key, '/v1/pets', {
      method: 'POST',
      body: { name: 'Fresh', categoryId: 1 },
      session,
    });
    expect(made.status).toBe(201);
    const after = await redisCall(one, key, '/v1/pets?limit=100', { session });
    expect(after.body).toEqual([...(first.body ?? []), made.body]);
    decoded.mockRestore();
  });

  it('answers 503 store_unavailable within the deadline, never hangs, while its server is stopped', async () => {
    const alone = await startRedisServer();
    const mock = createNodeMock({ store: alone.url, storePrefix: 'down', keys: [key], storeTimeout: 300 });
    try {
      await mock.ready;
      expect((await redisCall(mock, key, '/v1/pets/1')).status).toBe(200);
      await alone.stop();
      const refused = await redisCall(mock, key, '/v1/pets/1');
      expect(refused).toMatchObject({ status: 503, body: { code: 'store_unavailable' } });
      await expect(mock.faults()).rejects.toMatchObject({ code: 'store_unavailable' });
      expect((await mock.health()).problem?.message).toContain('cannot be reached since');
      await alone.start();
      // Recovers by itself: wait for the event (its health), not for the clock.
      await expect.poll(async () => (await mock.health()).store?.reachable, { timeout: 10_000 }).toBe(true);
      expect((await redisCall(mock, key, '/v1/pets/1')).status).toBe(200);
      // A hung server (a stopped process, a network that drops packets) answers nothing: refused at the deadline.
      alone.signal('SIGSTOP');
      const hung = await redisCall(mock, key, '/v1/pets/1');
      expect(hung).toMatchObject({ status: 503, body: { code: 'store_unavailable' } });
      expect((hung.body as { message: string }).message).toContain('did not answer within 300 ms');
      alone.signal('SIGCONT');
      await expect.poll(async () => (await redisCall(mock, key, '/v1/pets/1')).status, { timeout: 10_000 }).toBe(200);
    } finally {
      await mock.close();
      await alone.close();
    }
  });

  it('runs against a Redis server in CI', () => requireRedisServer());
});
