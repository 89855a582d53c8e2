import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/core/json/exact-json.js';
import { MemoryStore } from '../../src/core/store/memory-store.js';
import { IdSpaceExhaustedError, StoreBytesFullError, StoreFullError } from '../../src/core/store/store-errors.js';
import type { RedisEngine } from '../../src/redis/redis-engine.js';
import { act, created, items, openEngine, result, scenarioOf, shapes, zoo } from '../support/redis-engine.js';
import { noRedisServer, requireRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

describe('the Redis store tests', () => {
  it(noRedisServer === undefined ? 'have a redis-server to run against' : `are skipped: ${noRedisServer}`, () => {
    requireRedisServer();
  });
});

describe.skipIf(noRedisServer !== undefined)('a session’s store in Redis', () => {
  let server: RedisServer;
  let engine: RedisEngine;

  beforeAll(async () => {
    server = await startRedisServer();
    engine = await openEngine(server.url);
  });
  afterAll(async () => {
    await engine?.close();
    await server?.close();
  });

  it('lists the scenario’s items in ascending id order, filtered and cut at the limit', async () => {
    const session = 'lists';
    expect((await items(engine, { collection: 'animals', limit: 10 }, session)).map((each) => each.id)).toEqual([
      1, 2, 3,
    ]);
    expect(
      (await items(engine, { collection: 'animals', limit: 1, filters: { status: 'available' } }, session)).map(
        (each) => each.id,
      ),
    ).toEqual([1]);
    expect(await items(engine, { collection: 'animals', limit: 10, filters: { status: 'gone' } }, session)).toEqual([]);
    expect(await items(engine, { collection: 'animals', limit: 0 }, session)).toEqual([]);
  });

  it('creates with the next id above the scenario’s highest, and a list and a read agree at once', async () => {
    const session = 'creates';
    const item = await created(engine, 'animals', { name: 'Di', status: 'sold' }, session);
    expect(item).toEqual({ id: 4, name: 'Di', status: 'sold' });
    expect(await result(engine, { kind: 'get', collection: 'animals', id: 4 }, session)).toEqual({ kind: 'get', item });
    expect(await items(engine, { collection: 'animals', limit: 10, filters: { status: 'sold' } }, session)).toEqual([
      { id: 2, name: 'Bo', status: 'sold' },
      item,
    ]);
  });

  it('keeps each session’s changes to itself, sharing the scenario’s items', async () => {
    await created(engine, 'animals', { name: 'Only mine' }, 'mine');
    expect((await items(engine, { collection: 'animals', limit: 10 }, 'theirs')).map((each) => each.id)).toEqual([
      1, 2, 3,
    ]);
    expect((await items(engine, { collection: 'animals', limit: 10 }, 'mine')).map((each) => each.id)).toEqual([
      1, 2, 3, 4,
    ]);
    const listing = await engine.sessions();
    const mine = listing.sessions.find((each) => each.name === 'mine');
    const theirs = listing.sessions.find((each) => each.name === 'theirs');
    expect(mine).toMatchObject({ copied: true, counts: { animals: 4, keepers: 1 } });
    expect(theirs).toMatchObject({ copied: false, counts: { animals: 3, keepers: 1 } });
  });

  it('replaces, updates (a merge patch: null removes) and deletes, and lists follow every change', async () => {
    const session = 'writes';
    const replaced = await result(
      engine,
      { kind: 'replace', collection: 'animals', id: 2, fields: { name: 'Bob', status: 'available' } },
      session,
    );
    expect(replaced).toEqual({ kind: 'replace', item: { id: 2, name: 'Bob', status: 'available' } });
    const updated = await result(
      engine,
      { kind: 'update', collection: 'animals', id: 1, patch: { status: 'sold', name: null, age: 3 } },
      session,
    );
    expect(updated).toEqual({ kind: 'update', item: { id: 1, status: 'sold', age: 3 } });
    expect(await result(engine, { kind: 'delete', collection: 'animals', id: 3 }, session)).toEqual({
      kind: 'delete',
      deleted: true,
      item: { id: 3, name: 'Cy', status: 'available' },
    });
    expect(await result(engine, { kind: 'delete', collection: 'animals', id: 3 }, session)).toEqual({
      kind: 'delete',
      deleted: false,
      item: undefined,
    });
    expect(await result(engine, { kind: 'get', collection: 'animals', id: 3 }, session)).toEqual({
      kind: 'get',
      item: undefined,
    });
    expect(await result(engine, { kind: 'replace', collection: 'animals', id: 99, fields: {} }, session)).toEqual({
      kind: 'replace',
      item: undefined,
    });
    expect(await items(engine, { collection: 'animals', limit: 10 }, session)).toEqual([
      { id: 1, status: 'sold', age: 3 },
      { id: 2, name: 'Bob', status: 'available' },
    ]);
    expect(
      await items(engine, { collection: 'animals', limit: 10, filters: { status: 'available' } }, session),
    ).toEqual([{ id: 2, name: 'Bob', status: 'available' }]);
    expect(await items(engine, { collection: 'animals', limit: 10, filters: { status: 'sold' } }, session)).toEqual([
      { id: 1, status: 'sold', age: 3 },
    ]);
  });

  it('moves a session’s own item between filter buckets when a write changes the filtered field', async () => {
    const session = 'buckets';
    const item = await created(engine, 'animals', { name: 'Mover', status: 'sold' }, session);
    await result(
      engine,
      { kind: 'update', collection: 'animals', id: item.id as number, patch: { status: 'available' } },
      session,
    );
    await result(
      engine,
      { kind: 'replace', collection: 'animals', id: item.id as number, fields: { name: 'Moved', status: 'pending' } },
      session,
    );
    const ids = async (status: string) =>
      (await items(engine, { collection: 'animals', limit: 10, filters: { status } }, session)).map((each) => each.id);
    expect(await ids('sold')).toEqual([2]);
    expect(await ids('available')).toEqual([1, 3]);
    expect(await ids('pending')).toEqual([item.id]);
  });

  it('serves a collection with text ids: new ids count on from the scenario’s size, skipping those taken', async () => {
    const session = 'keepers';
    expect(await created(engine, 'keepers', { zone: 'south' }, session)).toEqual({ code: '2', zone: 'south' });
    await result(engine, { kind: 'replace', collection: 'keepers', id: '3', fields: {} }, session);
    expect((await items(engine, { collection: 'keepers', limit: 10 }, session)).map((each) => each.code)).toEqual([
      '2',
      'k1',
    ]);
    expect(await items(engine, { collection: 'keepers', limit: 10, filters: { zone: 'north' } }, session)).toEqual([
      { code: 'k1', zone: 'north' },
    ]);
  });

  it('keeps every value exactly: int64 beyond 2^53, decimals as written, key order, __proto__ as a plain field', async () => {
    const session = 'exact';
    const fields = JSON.parse('{"name":"Ex","__proto__":"proto","7":"seven"}') as Record<string, unknown>;
    fields.weight = 9007199254740993n;
    fields.nested = { deep: [-9223372036854775808n, 'x'] };
    const item = await created(engine, 'animals', fields, session);
    const memory = new MemoryStore({ shapes });
    memory.load(zoo);
    expect(stringifyJson(item)).toBe(stringifyJson(memory.collection('animals').create(fields)));
    expect(stringifyJson(item)).toBe(
      '{"7":"seven","id":4,"name":"Ex","__proto__":"proto","weight":9007199254740993,"nested":{"deep":[-9223372036854775808,"x"]}}',
    );
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    const byProto = JSON.parse('{"__proto__":"proto"}') as Record<string, unknown>;
    expect(await items(engine, { collection: 'animals', limit: 10, filters: byProto }, session)).toEqual([item]);
    expect(
      await items(engine, { collection: 'animals', limit: 10, filters: JSON.parse('{"__proto__":"other"}') }, session),
    ).toEqual([]);
    const patched = await result(
      engine,
      { kind: 'update', collection: 'animals', id: 4, patch: { 3: 'three', weight: 9223372036854775807n } },
      session,
    );
    expect(patched.kind === 'update' && stringifyJson(patched.item)).toBe(
      '{"3":"three","7":"seven","id":4,"name":"Ex","__proto__":"proto","weight":9223372036854775807,"nested":{"deep":[-9223372036854775808,"x"]}}',
    );
  });

  it('shows a collection to the admin view without taking a fault: size, scenario, filtered page', async () => {
    const session = 'viewed';
    await created(engine, 'animals', { name: 'Di', status: 'sold' }, session);
    await engine.scheduleFault(session, { status: 500 });
    expect(await engine.view(session, 'animals', { limit: 1, filters: { status: 'sold' } })).toEqual({
      scenario: 'zoo',
      size: 4,
      items: [{ id: 2, name: 'Bo', status: 'sold' }],
    });
    expect(await engine.faults(session)).toHaveLength(1);
  });

  it('refuses a write to an item whose reference is missing, and changes nothing', async () => {
    const session = 'references';
    const outcome = await act(
      engine,
      {
        kind: 'create',
        collection: 'animals',
        fields: { name: 'Kept', keeper: 'k9' },
        requires: [{ collection: 'keepers', id: 'k9', field: 'keeper', itemName: 'keeper' }],
      },
      session,
    );
    expect(outcome).toMatchObject({ kind: 'missing_reference', requirement: { collection: 'keepers', id: 'k9' } });
    const allowed = await act(
      engine,
      {
        kind: 'create',
        collection: 'animals',
        fields: { name: 'Kept', keeper: 'k1' },
        requires: [{ collection: 'keepers', id: 'k1', field: 'keeper', itemName: 'keeper' }],
      },
      session,
    );
    expect(allowed).toMatchObject({
      kind: 'done',
      result: { kind: 'create', item: { id: 4, name: 'Kept', keeper: 'k1' } },
    });
  });

  describe('ids at the ends of int64', () => {
    it('counts on exactly beyond 2^53, and refuses the id after 2^63−1 with id_space_exhausted, changing nothing', async () => {
      const high = scenarioOf('high', { animals: [{ id: 9223372036854775806n, name: 'Near the end' }] });
      await engine.switchScenario('high', high);
      const last = await created(engine, 'animals', { name: 'Last' }, 'high');
      expect(last.id).toBe(9223372036854775807n);
      await expect(
        act(engine, { kind: 'create', collection: 'animals', fields: { name: 'Beyond' } }, 'high'),
      ).rejects.toBeInstanceOf(IdSpaceExhaustedError);
      expect((await items(engine, { collection: 'animals', limit: 10 }, 'high')).map((each) => each.id)).toEqual([
        9223372036854775806n,
        9223372036854775807n,
      ]);
    });

    it('orders negative and positive ids over the whole range, as a list and by the bucket of a filter', async () => {
      const spread = [
        -9223372036854775808n,
        -9007199254740993n,
        -10,
        -9,
        -1,
        0,
        1,
        9,
        10,
        9007199254740993n,
        9223372036854775807n,
      ];
      const shuffled = [...spread].reverse().map((id, index) => ({ id, name: `n${index}`, status: 'available' }));
      await engine.switchScenario('spread', scenarioOf('spread', { animals: shuffled }));
      expect((await items(engine, { collection: 'animals', limit: 100 }, 'spread')).map((each) => each.id)).toEqual(
        spread,
      );
      expect(
        (await items(engine, { collection: 'animals', limit: 100, filters: { status: 'available' } }, 'spread')).map(
          (each) => each.id,
        ),
      ).toEqual(spread);
      expect((await items(engine, { collection: 'animals', limit: 3 }, 'spread')).map((each) => each.id)).toEqual(
        spread.slice(0, 3),
      );
    });

    it('starts a scenario whose highest id is negative one above it', async () => {
      await engine.switchScenario('negative', scenarioOf('negative', { animals: [{ id: -5, name: 'Minus' }] }));
      expect((await created(engine, 'animals', { name: 'Next' }, 'negative')).id).toBe(-4);
    });
  });

  describe('limits, refused before anything changes', () => {
    it('refuses a create beyond the most items a collection holds (507 store_full), the counter untouched', async () => {
      const limited = await openEngine(server.url, { limits: { maxItems: 4 } });
      try {
        await created(limited, 'animals', { name: 'Fourth' });
        const refusal = act(limited, { kind: 'create', collection: 'animals', fields: { name: 'Fifth' } });
        await expect(refusal).rejects.toBeInstanceOf(StoreFullError);
        await expect(refusal).rejects.toMatchObject({
          status: 507,
          code: 'store_full',
          maxItems: 4,
          wanted: 5,
          collection: 'animals',
        });
        await result(limited, { kind: 'delete', collection: 'animals', id: 1 });
        expect((await created(limited, 'animals', { name: 'After' })).id).toBe(5);
      } finally {
        await limited.close();
      }
    });

    it('refuses a write beyond one store’s bytes and beyond every store’s together, with the memory store’s words', async () => {
      const bytes = await openEngine(server.url, { limits: { maxStoreBytes: 300, maxTotalStoreBytes: 100 } });
      try {
        const memory = new MemoryStore({ shapes, maxBytes: 300 });
        memory.load(zoo);
        const big = { name: 'x'.repeat(200) };
        let expected: unknown;
        try {
          memory.collection('animals').create(big);
        } catch (error) {
          expected = error;
        }
        await expect(act(bytes, { kind: 'create', collection: 'animals', fields: big })).rejects.toMatchObject({
          message: (expected as Error).message,
          scope: 'store',
        });
        await created(bytes, 'animals', { name: 'y'.repeat(40) }, 'one');
        const mock = act(bytes, { kind: 'create', collection: 'animals', fields: { name: 'z'.repeat(40) } }, 'two');
        await expect(mock).rejects.toBeInstanceOf(StoreBytesFullError);
        await expect(mock).rejects.toMatchObject({ scope: 'mock', maxBytes: 100 });
        expect((await bytes.sessions()).sessions.find((each) => each.name === 'two')?.counts).toEqual({
          animals: 3,
          keepers: 1,
        });
      } finally {
        await bytes.close();
      }
    });

    it('refuses a scenario larger than a store may hold, keeping what the store had', async () => {
      const limited = await openEngine(server.url, { limits: { maxItems: 3 } });
      try {
        await created(limited, 'keepers', { zone: 'east' }, 'switcher');
        const large = scenarioOf('large', { animals: [1, 2, 3, 4].map((id) => ({ id })) });
        await expect(limited.switchScenario('switcher', large)).rejects.toThrow(
          "scenario 'large' would make the store hold 4 animals, more than its maximum of 3",
        );
        expect(await limited.session('switcher')).toMatchObject({
          scenario: 'zoo',
          counts: { animals: 3, keepers: 2 },
        });
      } finally {
        await limited.close();
      }
    });
  });

  it('does what the memory store does, for any sequence of writes and reads', async () => {
    const field = fc.constantFrom('status', 'name', '__proto__', '10');
    const value = fc.oneof(
      { arbitrary: fc.constantFrom('available', 'sold', null), weight: 4 },
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.string({ maxLength: 4 }),
    );
    const fields = fc.dictionary(field, value, { maxKeys: 3 }).map((each) => {
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(each))
        if (v !== null)
          Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
    const id = fc.integer({ min: 0, max: 7 });
    const command = fc.oneof(
      fields.map((f) => ({ kind: 'create' as const, fields: f })),
      fc.tuple(id, fields).map(([i, f]) => ({ kind: 'replace' as const, id: i, fields: f })),
      // (The memory store's merge assigns fields, so a patch's __proto__ is lost there: kept out of the comparison.)
      fc
        .tuple(id, fc.dictionary(fc.constantFrom('status', 'name', '10'), value, { maxKeys: 3 }))
        .map(([i, patch]) => ({ kind: 'update' as const, id: i, patch })),
      id.map((i) => ({ kind: 'delete' as const, id: i })),
      id.map((i) => ({ kind: 'get' as const, id: i })),
      fc
        .tuple(fc.integer({ min: 0, max: 10 }), fc.option(fc.constantFrom('available', 'sold'), { nil: undefined }))
        .map(([limit, status]) => ({
          kind: 'list' as const,
          limit,
          filters: { status },
        })),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 16 }), async (commands) => {
        const session = `model-${++run}`;
        const memory = new MemoryStore({ shapes });
        memory.load(zoo);
        const animals = memory.collection('animals');
        for (const each of commands) {
          const got = await result(engine, { ...each, collection: 'animals' } as never, session);
          const expected =
            each.kind === 'create'
              ? animals.create(each.fields)
              : each.kind === 'replace'
                ? animals.replace(each.id, each.fields)
                : each.kind === 'update'
                  ? animals.update(each.id, each.patch)
                  : each.kind === 'delete'
                    ? animals.delete(each.id)
                    : each.kind === 'get'
                      ? animals.get(each.id)
                      : animals.list({ limit: each.limit, filters: each.filters });
          if (got.kind === 'answered') throw new Error('a read without a known revision was skipped');
          const shown = got.kind === 'list' ? got.items : got.kind === 'delete' ? got.deleted : got.item;
          expect(stringifyJson(shown ?? null)).toBe(stringifyJson(expected ?? null));
        }
        expect(stringifyJson(await items(engine, { collection: 'animals', limit: 100 }, session))).toBe(
          stringifyJson(animals.all()),
        );
        // A stale index entry shows only in a filtered list: read every bucket at the end.
        for (const status of ['available', 'sold']) {
          const filtered = await items(engine, { collection: 'animals', limit: 100, filters: { status } }, session);
          expect(stringifyJson(filtered)).toBe(stringifyJson(animals.list({ limit: 100, filters: { status } })));
        }
      }),
      { numRuns: 150 },
    );
  });
});
