import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisEngine } from '../../src/redis/redis-engine.js';
import { act, created, freshPrefix, items, openEngine, scenarioOf } from '../support/redis-engine.js';
import { noRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

describe.skipIf(noRedisServer !== undefined)('two engines on one Redis, as two replicas', () => {
  let server: RedisServer;
  let one: RedisEngine;
  let two: RedisEngine;

  beforeAll(async () => {
    server = await startRedisServer();
    const prefix = freshPrefix();
    one = await openEngine(server.url, { prefix });
    two = await openEngine(server.url, { prefix });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await server?.close();
  });

  it('gives concurrent creates on both distinct ids, and keeps them all', async () => {
    const session = 'burst';
    const made = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        created(index % 2 === 0 ? one : two, 'animals', { name: `n${index}` }, session),
      ),
    );
    const ids = made.map((each) => each.id as number);
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, index) => index + 4));
    const listed = await items(two, { collection: 'animals', limit: 1000 }, session);
    expect(listed).toHaveLength(203);
    for (const item of made) expect(listed).toContainEqual(item);
  });

  it('sees at once on one replica every write acknowledged by the other', async () => {
    const session = 'seen';
    const item = await created(one, 'animals', { name: 'from one' }, session);
    expect(
      await two.request({
        session,
        create: true,
        operationId: 'get',
        now: 0,
        action: { kind: 'get', collection: 'animals', id: item.id as number },
      }),
    ).toMatchObject({
      kind: 'done',
      result: { item },
    });
    await two.request({
      session,
      create: true,
      operationId: 'delete',
      now: 0,
      action: { kind: 'delete', collection: 'animals', id: item.id as number },
    });
    expect((await items(one, { collection: 'animals', limit: 10 }, session)).map((each) => each.id)).toEqual([1, 2, 3]);
  });

  it('skips a read at the revision its replica holds the answer for, and reads again once the other replica wrote', async () => {
    const session = 'answered';
    const list = { kind: 'list', collection: 'animals', limit: 10 } as const;
    const ask = (engine: RedisEngine, known: number) =>
      engine.request({ session, create: true, operationId: 'list', now: 0, action: list, known });
    const first = await act(one, list, session);
    if (first.kind !== 'done') throw new Error(`the list did not run: ${first.kind}`);
    expect(await ask(one, first.revision)).toMatchObject({
      kind: 'done',
      revision: first.revision,
      result: { kind: 'answered' },
    });
    const item = await created(two, 'animals', { name: 'from two' }, session);
    const after = await ask(one, first.revision);
    expect(after).toMatchObject({ kind: 'done', result: { kind: 'list' } });
    if (after.kind !== 'done') return;
    expect(after.revision).not.toBe(first.revision);
    expect(after.result).toMatchObject({ items: expect.arrayContaining([item]) as unknown });
    // A read by id is skipped only at its revision too, and a write is never skipped.
    const read = { kind: 'get', collection: 'animals', id: item.id as number } as const;
    expect(
      await one.request({ session, create: true, operationId: 'get', now: 0, action: read, known: first.revision }),
    ).toMatchObject({ kind: 'done', result: { kind: 'get', item } });
    const write = { kind: 'create', collection: 'animals', fields: { name: 'again' } } as const;
    expect(
      await one.request({ session, create: true, operationId: 'create', now: 0, action: write, known: after.revision }),
    ).toMatchObject({ kind: 'done', result: { kind: 'create' } });
  });

  it('keeps ids beyond 2^53 exact across replicas, up to 2^63−1 and no further', async () => {
    const session = 'large-ids';
    await one.switchScenario(
      session,
      scenarioOf('beyond', { animals: [{ id: 9007199254740993n, name: 'Past 2^53' }] }),
    );
    expect((await created(two, 'animals', { name: 'a' }, session)).id).toBe(9007199254740994n);
    expect((await created(one, 'animals', { name: 'b' }, session)).id).toBe(9007199254740995n);
    expect((await items(two, { collection: 'animals', limit: 10 }, session)).map((each) => each.id)).toEqual([
      9007199254740993n,
      9007199254740994n,
      9007199254740995n,
    ]);
    await one.switchScenario(session, scenarioOf('edge', { animals: [{ id: 9223372036854775806n }] }));
    const racing = await Promise.allSettled([
      created(one, 'animals', {}, session),
      created(two, 'animals', {}, session),
      created(one, 'animals', {}, session),
    ]);
    expect(
      racing
        .filter((each) => each.status === 'fulfilled')
        .map((each) => (each as PromiseFulfilledResult<{ id: unknown }>).value.id),
    ).toEqual([9223372036854775807n]);
    expect(
      racing.filter((each) => each.status === 'rejected').map((each) => (each as PromiseRejectedResult).reason.code),
    ).toEqual(['id_space_exhausted', 'id_space_exhausted']);
  });

  it('shares one copy of a scenario between replicas of the same version', async () => {
    const scenario = scenarioOf('shared', { animals: [{ id: 1 }] });
    const [a, b] = await Promise.all([
      one.publishScenario(scenario),
      two.publishScenario(scenarioOf('shared', { animals: [{ id: 1 }] })),
    ]);
    expect(a).toBe(b);
    expect(await one.publishScenario(scenarioOf('shared', { animals: [{ id: 2 }] }))).not.toBe(a);
  });

  it('keeps two kits apart on one server by their prefixes', async () => {
    const other = await openEngine(server.url, { prefix: freshPrefix() });
    try {
      await created(one, 'animals', { name: 'kit one' }, 'apart');
      expect((await items(other, { collection: 'animals', limit: 10 }, 'apart')).map((each) => each.id)).toEqual([
        1, 2, 3,
      ]);
      expect(await act(other, undefined, 'apart')).toMatchObject({ kind: 'done' });
    } finally {
      await other.close();
    }
  });
});
