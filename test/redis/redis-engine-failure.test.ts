import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors/http-error.js';
import type { RedisEngine } from '../../src/redis/redis-engine.js';
import { RedisEngine as Engine } from '../../src/redis/redis-engine.js';
import { act, created, freshPrefix, items, openEngine, shapes, zoo } from '../support/redis-engine.js';
import { noRedisServer, startRedisServer } from '../support/redis-server.js';

/** Waits for a condition by polling the engine's own state (no sleep decides a verdict: the loop ends on the event). */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 2_000; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(noRedisServer !== undefined)('the Redis engine when the server fails', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(value: T): T => {
    opened.push(value);
    return value;
  };
  afterEach(async () => {
    for (const each of opened.splice(0).reverse()) await each.close();
  });

  it('answers 503 store_unavailable while the server is stopped, says why in health, and recovers without a restart', async () => {
    const server = track(await startRedisServer());
    const engine: RedisEngine = track(await openEngine(server.url, { deadlineMs: 500 }));
    await created(engine, 'animals', { name: 'before' }, 'survivor');
    // A burst in flight when the server stops: every call settles, answered or refused with 503, none hangs.
    const burst = Array.from({ length: 200 }, (_, index) =>
      created(engine, 'animals', { name: `burst ${index}` }, 'survivor').then(
        () => 'created',
        (error: unknown) => (error instanceof HttpError ? `${error.status} ${error.code}` : String(error)),
      ),
    );
    await server.stop();
    const settled = await Promise.all(burst);
    for (const each of settled) expect(['created', '503 store_unavailable']).toContain(each);
    const refused = await act(engine, undefined, 'survivor').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 503, code: 'store_unavailable' });
    expect((refused as Error).message).toMatch(
      /the Redis store at redis:\/\/127\.0\.0\.1:\d+ cannot be reached since .*: requests that need it are refused/,
    );
    expect(engine.health()).toMatchObject({ reachable: false, store: `redis://127.0.0.1:${server.port}` });
    expect(engine.health().reason).toBeTruthy();
    await server.start();
    await engine.whenReady();
    // The server kept nothing (no persistence): the session is made again, its scenario written again, transparently.
    expect((await items(engine, { collection: 'animals', limit: 10 }, 'survivor')).map((each) => each.id)).toEqual([
      1, 2, 3,
    ]);
    expect(engine.health()).toMatchObject({ reachable: true });
    expect(engine.libraryLoads).toBeGreaterThanOrEqual(1);
  });

  it('refuses within the deadline when the server hangs, then replaces its connection and recovers', async () => {
    const server = track(await startRedisServer());
    const events: string[] = [];
    const engine = track(
      await openEngine(server.url, { deadlineMs: 300, onEvent: (event) => events.push(event.kind) }),
    );
    await act(engine, undefined, 'hung');
    server.signal('SIGSTOP');
    const refused = await act(engine, undefined, 'hung').catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, code: 'store_unavailable' });
    expect((refused as Error).message).toContain('did not answer within 300 ms');
    expect(engine.health()).toMatchObject({ reachable: false, reason: 'no answer within 300 ms' });
    await until(() => events.includes('connection_replaced'), 'the hung connection replaced');
    server.signal('SIGCONT');
    await until(
      async () =>
        await act(engine, undefined, 'hung').then(
          () => true,
          () => false,
        ),
      'a request answered after SIGCONT',
    );
    expect(engine.health()).toMatchObject({ reachable: true });
  });

  it('starts while the server is down, says so, and serves once it is up', async () => {
    const server = track(await startRedisServer());
    await server.stop();
    const events: string[] = [];
    const engine = track(
      await Engine.open({
        url: server.url,
        prefix: freshPrefix(),
        collections: shapes,
        startScenario: zoo,
        seed: 1,
        onEvent: (event) => events.push(event.kind),
      }),
    );
    await until(() => engine.health().reason !== 'connecting', 'the first connection attempt');
    expect(engine.health()).toMatchObject({ reachable: false });
    expect(engine.health().reason).toMatch(/ECONNREFUSED/);
    await expect(act(engine, undefined)).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
    await server.start();
    await engine.whenReady();
    expect(await act(engine, undefined)).toMatchObject({ kind: 'done', scenario: 'zoo' });
    expect(events).toContain('unreachable');
    expect(events).toContain('reachable');
  });

  it('loads its library again when the server lost it (FUNCTION FLUSH), and the caller never sees it missing', async () => {
    const server = track(await startRedisServer());
    const engine = track(await openEngine(server.url));
    await act(engine, undefined);
    const before = engine.libraryLoads;
    await flush(server.url);
    expect(await act(engine, undefined)).toMatchObject({ kind: 'done' });
    expect(engine.libraryLoads).toBe(before + 1);
  });

  it('keeps sessions across a restart of a server that persists, and says what the server keeps', async () => {
    const server = track(await startRedisServer({ persistent: true }));
    const prefix = freshPrefix();
    const engine = track(await openEngine(server.url, { prefix }));
    await until(() => engine.persistence !== undefined, 'the persistence read');
    expect(engine.persistence).toMatchObject({ persists: true, appendOnly: true });
    const item = await created(engine, 'animals', { name: 'kept' }, 'durable');
    await server.stop();
    await server.start();
    await engine.whenReady();
    expect(await items(engine, { collection: 'animals', limit: 10 }, 'durable')).toContainEqual(item);
    const volatile = track(await startRedisServer());
    const bare = track(await openEngine(volatile.url));
    await until(() => bare.persistence !== undefined, 'the persistence read');
    expect(bare.persistence).toMatchObject({ persists: false, save: '', appendOnly: false });
    expect(bare.persistence?.summary).toContain('keeps nothing across a restart');
  });

  it('says it cannot tell what the server keeps when CONFIG is refused, as managed services refuse it', async () => {
    const server = track(await startRedisServer({ args: ['--rename-command', 'CONFIG', ''] }));
    const engine = track(await openEngine(server.url));
    await until(() => engine.persistence !== undefined, 'the persistence read');
    expect(engine.persistence).toMatchObject({ persists: undefined, save: undefined, appendOnly: false });
    expect(engine.persistence?.summary).toContain('would not say');
  });

  it('never shows the password: not in health, errors or events', async () => {
    const password = 'pa:ss@word/Secret';
    const server = track(await startRedisServer({ password }));
    const seen: string[] = [];
    const wrong = server.url.replace(encodeURIComponent(password), encodeURIComponent('wrong-Secret-9'));
    const refused = track(
      await Engine.open({
        url: wrong,
        prefix: freshPrefix(),
        collections: shapes,
        startScenario: zoo,
        seed: 1,
        onEvent: (event) => seen.push(JSON.stringify(event)),
      }),
    );
    await until(() => refused.health().reason !== 'connecting', 'the refused connection');
    const error = await act(refused, undefined).catch((caught: unknown) => caught);
    const engine = track(await openEngine(server.url, { onEvent: (event) => seen.push(JSON.stringify(event)) }));
    await created(engine, 'animals', { name: 'authenticated' });
    const said = [
      JSON.stringify(refused.health()),
      String((error as Error).message),
      JSON.stringify(engine.health()),
      ...seen,
    ].join('\n');
    expect(said).toContain(`redis://127.0.0.1:${server.port}`);
    for (const secret of [password, encodeURIComponent(password), 'wrong-Secret-9', 'Secret'])
      expect(said).not.toContain(secret);
  });

  it('refuses a URL that is not a Redis one, naming it without its password', async () => {
    await expect(
      Engine.open({ url: 'http://user:hunter2@host:1', collections: shapes, startScenario: zoo, seed: 1 }),
    ).rejects.toThrow('http://user@host:1: a store URL starts with redis:// or rediss:// (TLS), not http://');
    await expect(
      Engine.open({ url: 'redis://h', prefix: 'a{b}', collections: shapes, startScenario: zoo, seed: 1 }),
    ).rejects.toThrow('the store prefix must be');
  });
});

async function flush(url: string): Promise<void> {
  const { createClient } = await import('@redis/client');
  const client = createClient({ url });
  await client.connect();
  await client.sendCommand(['FUNCTION', 'FLUSH']);
  client.destroy();
}
