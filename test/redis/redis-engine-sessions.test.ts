import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/core/support/random.js';
import { Session } from '../../src/core/sessions/session.js';
import { createRevisionCounter } from '../../src/core/store/revision-counter.js';
import type { RedisEngine } from '../../src/redis/redis-engine.js';
import { journalEntry } from '../support/journal-entry.js';
import { act, created, items, openEngine, scenarioOf, shapes, zoo } from '../support/redis-engine.js';
import { noRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

/** A memory session like the engine's, for the draws both must make alike. */
function memorySession(name: string, latency?: { min: number; max: number }): Session {
  return new Session({
    name,
    scenario: zoo,
    shapes,
    maxPets: 1000,
    revisions: createRevisionCounter(),
    journalSize: 500,
    latency,
    seed: 1,
  });
}

describe.skipIf(noRedisServer !== undefined)('sessions in Redis', () => {
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

  describe('the registry', () => {
    it('makes a session only for a request that may make one', async () => {
      expect(await engine.request({ session: 'keyless', create: false, operationId: 'op', now: 0 })).toEqual({
        kind: 'no_session',
      });
      expect((await engine.sessions()).sessions.map((each) => each.name)).not.toContain('keyless');
      expect(await act(engine, undefined, 'keyed')).toMatchObject({ kind: 'done', scenario: 'zoo' });
      expect((await engine.sessions()).sessions.map((each) => each.name)).toContain('keyed');
    });

    it('evicts the least recently used named session beyond the limit, never the default one, and reports it', async () => {
      const events: string[] = [];
      const small = await openEngine(server.url, {
        limits: { maxSessions: 2 },
        onEvent: (event) => {
          if (event.kind === 'session_evicted') events.push(event.session);
        },
      });
      try {
        await created(small, 'animals', { name: 'first' }, 'w1');
        await act(small, undefined, 'w2');
        await act(small, undefined, 'w1');
        const third = await act(small, undefined, 'w3');
        expect(third).toMatchObject({ evicted: 'w2' });
        expect(events).toEqual(['w2']);
        const listing = await small.sessions();
        expect(listing.max).toBe(2);
        expect(listing.sessions.map((each) => each.name)).toEqual(['default', 'w1', 'w3']);
        expect(listing.sessions[1]).toMatchObject({ copied: true, counts: { animals: 4 } });
        await act(small, undefined, 'w4');
        expect((await small.sessions()).sessions.map((each) => each.name)).toEqual(['default', 'w3', 'w4']);
      } finally {
        await small.close();
      }
    });

    it('drops a named session with its items, journal and faults; the default one cannot be dropped', async () => {
      await created(engine, 'animals', { name: 'gone soon' }, 'dropped');
      await engine.scheduleFault('dropped', { status: 500 });
      expect(await engine.dropSession('dropped')).toBe(true);
      expect(await engine.dropSession('dropped')).toBe(false);
      expect(await engine.session('dropped')).toMatchObject({ copied: false, faults: 0, counts: { animals: 3 } });
      await expect(engine.dropSession('default')).rejects.toMatchObject({ status: 400, code: 'invalid_session' });
    });

    /**
     * An engine whose sessions expire after `sessionTtlMs` unused, on a clock the test moves on, and the keys the
     * server holds for a session of it.
     */
    async function withIdleTtl(
      sessionTtlMs: number,
      test: (
        ttl: RedisEngine,
        later: (ms: number) => void,
        keysOf: (session: string) => Promise<string[]>,
      ) => Promise<void>,
    ): Promise<void> {
      let now = Date.UTC(2026, 0, 1);
      const ttl = await openEngine(server.url, { sessionTtlMs, clock: () => now });
      const { createClient } = await import('@redis/client');
      const client = createClient({ url: server.url });
      await client.connect();
      try {
        await test(
          ttl,
          (ms) => (now += ms),
          (session) => client.keys(`${ttl.keyPrefix}:s:${session}*`),
        );
      } finally {
        await client.quit();
        await ttl.close();
      }
    }

    it('drops a named session unused for longer than the idle TTL, with every key it held; one in use stays', () =>
      withIdleTtl(60_000, async (ttl, later, keysOf) => {
        await created(ttl, 'animals', { name: 'left behind' }, 'idle');
        await ttl.scheduleFault('idle', { status: 500 });
        await created(ttl, 'animals', { name: 'kept busy' }, 'busy');
        await created(ttl, 'animals', { name: 'shared' });
        await ttl.record('idle', journalEntry(1));
        expect((await ttl.journal('idle')).records).toHaveLength(1);
        expect(await keysOf('idle')).not.toEqual([]);
        later(40_000);
        await act(ttl, undefined, 'busy');
        later(30_000);
        // 'idle' was last used 70 s ago, 'busy' 30 s ago: the listing sweeps the first and keeps the second.
        expect((await ttl.sessions()).sessions.map((each) => each.name)).toEqual(['default', 'busy']);
        expect(await keysOf('idle')).toEqual([]);
        expect(await ttl.session('busy')).toMatchObject({ copied: true, counts: { animals: 4 } });
        expect(await ttl.session('idle')).toMatchObject({ copied: false, faults: 0, counts: { animals: 3 } });
        // The default session never expires.
        later(10 * 24 * 60 * 60 * 1000);
        expect(await ttl.session('default')).toMatchObject({ copied: true, counts: { animals: 4 } });
      }));

    it('starts afresh a session whose next request comes after its idle TTL, sweeping others at each call', () =>
      withIdleTtl(1000, async (ttl, later, keysOf) => {
        await created(ttl, 'animals', { name: 'mine' }, 'late');
        await created(ttl, 'animals', { name: 'theirs' }, 'other');
        expect(await keysOf('other')).not.toEqual([]);
        later(999);
        expect(await items(ttl, { collection: 'animals', limit: 100 }, 'late')).toHaveLength(4);
        later(1001);
        expect(await items(ttl, { collection: 'animals', limit: 100 }, 'late')).toHaveLength(3);
        // The request of 'late' swept 'other', unused for 2 s, before anyone listed the sessions.
        expect(await keysOf('other')).toEqual([]);
      }));

    it('keeps unused sessions for ever with an idle TTL of 0, until the registry evicts them', () =>
      withIdleTtl(0, async (forever, later) => {
        await created(forever, 'animals', { name: 'kept' }, 'old');
        later(365 * 24 * 60 * 60 * 1000);
        expect(await forever.session('old')).toMatchObject({ copied: true, counts: { animals: 4 } });
      }));

    it('keeps session names as text: __proto__, and names that are no key segment', async () => {
      for (const name of ['__proto__', 'a:b', 'zoë']) {
        await created(engine, 'animals', { name }, name);
        expect(await engine.session(name)).toMatchObject({ name, copied: true, counts: { animals: 4 } });
      }
      expect(await engine.session('a')).toMatchObject({ copied: false });
    });
  });

  describe('scenarios on the server', () => {
    it('lets a scenario no session stands on expire, every key at once, and keeps the ones in use', async () => {
      const { createClient } = await import('@redis/client');
      const client = createClient({ url: server.url });
      await client.connect();
      const kept = await openEngine(server.url, { scenarioTtlMs: 60_000 });
      try {
        const keysOf = async (name: string) => {
          for (const meta of await client.keys(`${kept.keyPrefix}:sc:*`)) {
            if (/:sc:[0-9a-f]{32}$/.test(meta) && (await client.hGet(meta, 'name')) === name) {
              return client.keys(`${meta}*`);
            }
          }
          return [];
        };
        const scenario = (name: string) =>
          scenarioOf(name, { animals: [{ id: 8, name, status: 'sold' }], keepers: [{ code: 'k9', zone: 'east' }] });
        await kept.switchScenario('left', scenario('left'));
        await kept.switchScenario('left', zoo);
        await kept.switchScenario('stays', scenario('stays'));
        // Items, ids, an index per indexed value, the summary and the list of keys: each with an expiry.
        const left = await keysOf('left');
        expect(left.length).toBeGreaterThanOrEqual(5);
        for (const each of [...left, ...(await keysOf('zoo'))]) expect(await client.pTTL(each)).toBeGreaterThan(0);
        // Cut every scenario's time short; a renewal then renews the two in use and leaves 'left' to run out.
        for (const each of await client.keys(`${kept.keyPrefix}:sc:*`)) await client.pExpire(each, 20_000);
        expect(await kept.keepScenarios()).toBe(2);
        for (const each of [...(await keysOf('stays')), ...(await keysOf('zoo'))]) {
          expect(await client.pTTL(each)).toBeGreaterThan(30_000);
        }
        for (const each of left) expect(await client.pTTL(each)).toBeLessThanOrEqual(20_000);
        for (const each of left) await client.pExpire(each, 1);
        await expect.poll(async () => (await keysOf('left')).length).toBe(0);
        expect(await kept.session('stays')).toMatchObject({ scenario: 'stays', counts: { animals: 1 } });
        // A session switched to it again writes it again.
        await kept.switchScenario('left', scenario('left'));
        expect(await kept.session('left')).toMatchObject({ scenario: 'left', counts: { animals: 1 } });
      } finally {
        await client.quit();
        await kept.close();
      }
    });
  });

  describe('faults', () => {
    it('takes a fault for N requests exactly N times, for its operation only, then lists none', async () => {
      const session = 'faulty';
      const scheduled = await engine.scheduleFault(session, { operationId: 'listAnimals', status: 503, times: 2 });
      expect(scheduled).toEqual({ id: 1, operationId: 'listAnimals', status: 503, times: 2 });
      const other = await engine.request({ session, create: true, operationId: 'getAnimal', now: 0 });
      expect(other.kind).toBe('done');
      const hits = [];
      for (let index = 0; index < 3; index++) {
        hits.push(
          await engine.request({
            session,
            create: true,
            operationId: 'listAnimals',
            now: 0,
            action: { kind: 'list', collection: 'animals', limit: 1 },
          }),
        );
      }
      expect(hits.map((each) => each.kind)).toEqual(['fault', 'fault', 'done']);
      expect(hits[0]).toMatchObject({ fault: { id: 1, status: 503, times: 1 } });
      expect(await engine.faults(session)).toEqual([]);
    });

    it('tells a request who scheduled the fault it took, the admin API unless told, and lists faults without it', async () => {
      const session = 'sourced';
      await engine.scheduleFault(session, { operationId: 'listAnimals', status: 503 }, 'scheduleFault()');
      await engine.scheduleFault(session, { operationId: 'listAnimals', status: 500 });
      expect(await engine.faults(session)).toEqual([
        { id: 1, operationId: 'listAnimals', status: 503, times: 1 },
        { id: 2, operationId: 'listAnimals', status: 500, times: 1 },
      ]);
      const take = () => engine.request({ session, create: true, operationId: 'listAnimals', now: 0 });
      expect(await take()).toMatchObject({ kind: 'fault', fault: { id: 1, status: 503, source: 'scheduleFault()' } });
      expect(await take()).toMatchObject({
        kind: 'fault',
        fault: { id: 2, status: 500, source: 'POST /__admin/faults' },
      });
      expect((await take()).kind).toBe('done');
    });

    it('refuses more faults than a session may hold (409), and a reset numbers the next one 1 again', async () => {
      const limited = await openEngine(server.url, { limits: { maxFaults: 2 } });
      try {
        await limited.scheduleFault('full', { fault: 'connection_reset', probability: 0.5 });
        await limited.scheduleFault('full', { status: 418 });
        await expect(limited.scheduleFault('full', { status: 500 })).rejects.toMatchObject({
          status: 409,
          code: 'too_many_faults',
        });
        expect(await limited.faults('full')).toEqual([
          { id: 1, fault: 'connection_reset', probability: 0.5 },
          { id: 2, status: 418, times: 1 },
        ]);
        expect(await limited.clearFaults('full')).toBe(2);
        await limited.reset('full');
        expect((await limited.scheduleFault('full', { status: 500 })).id).toBe(1);
      } finally {
        await limited.close();
      }
    });

    it('draws fault chances and latency from the session’s seeded generator, as the memory session does', async () => {
      const session = 'drawn';
      const latency = { min: 10, max: 50 };
      await engine.setLatency(session, latency);
      await engine.scheduleFault(session, { status: 500, probability: 0.3 });
      const memory = memorySession(session, latency);
      memory.faults.add({ status: 500, probability: 0.3 });
      for (let index = 0; index < 40; index++) {
        const delay = latency.min + memory.random() * (latency.max - latency.min);
        const fault = memory.faults.take('anyOperation');
        const outcome = await act(engine, undefined, session);
        expect(outcome).toMatchObject({ kind: fault ? 'fault' : 'done', delayMs: delay, latency });
      }
    });

    it('runs the generator of src/core/support/random.ts exactly, bit for bit, in the script', async () => {
      const session = 'generator';
      await engine.scheduleFault(session, { status: 500, probability: 1 });
      // With a chance of 1 every draw hits; the draws themselves show in the latency, drawn first.
      await engine.setLatency(session, { min: 0, max: 4294967296 });
      // The session's seed: the mock's (1) and its name's FNV-1a hash, as session.ts makes it.
      const seed = createSeededRandom((1 ^ fnv(session)) >>> 0);
      for (let index = 0; index < 20; index++) {
        const outcome = await act(engine, undefined, session);
        const expected = seed() * 4294967296;
        seed();
        expect(outcome.kind !== 'no_session' && outcome.delayMs).toBe(expected);
      }
    });

    it('fires a fault for one request once across two replicas racing for it', async () => {
      const other = await openEngine(server.url, {
        prefix: (engine as unknown as { keyPrefix: string }).keyPrefix.slice(1, -1),
      });
      try {
        for (let round = 0; round < 20; round++) {
          const session = `race-${round}`;
          await engine.scheduleFault(session, { status: 503 });
          const outcomes = await Promise.all(
            Array.from({ length: 8 }, (_, index) => act(index % 2 === 0 ? engine : other, undefined, session)),
          );
          expect(outcomes.filter((each) => each.kind === 'fault')).toHaveLength(1);
        }
      } finally {
        await other.close();
      }
    });
  });

  describe('latency, the clock and the sunset', () => {
    it('sets and removes the session’s latency', async () => {
      await engine.setLatency('slow', { min: 5, max: 5 });
      expect(await act(engine, undefined, 'slow')).toMatchObject({ latency: { min: 5, max: 5 }, delayMs: 5 });
      await engine.setLatency('slow', { min: 0, max: 0 });
      expect(await act(engine, undefined, 'slow')).toMatchObject({ latency: undefined, delayMs: 0 });
    });

    it('refuses an operation past its sunset by the session’s clock, for that session only', async () => {
      const sunsetMs = Date.UTC(2030, 11, 5);
      const now = Date.UTC(2026, 0, 1);
      const request = (session: string) =>
        engine.request({
          session,
          create: true,
          operationId: 'getAnimal',
          now,
          sunsetMs,
          action: { kind: 'get', collection: 'animals', id: 1 },
        });
      await engine.setClockOffset('future', Date.UTC(2030, 11, 6) - now);
      expect(await request('future')).toMatchObject({ kind: 'removed', sessionNow: Date.UTC(2030, 11, 6) });
      expect(await request('present')).toMatchObject({ kind: 'done', result: { item: { id: 1 } } });
      await engine.setClockOffset('future', 0);
      expect(await request('future')).toMatchObject({ kind: 'done', clockOffset: 0 });
    });
  });

  describe('scenarios and reset', () => {
    it('switches a session’s scenario, and a reset takes it back to its start: scenario, faults, latency, clock, journal, draws', async () => {
      const session = 'resetting';
      const first = await act(engine, undefined, session);
      await engine.switchScenario(session, scenarioOf('small', { animals: [{ id: 7, name: 'Seven' }] }));
      expect(await engine.session(session)).toMatchObject({ scenario: 'small', counts: { animals: 1, keepers: 0 } });
      await created(engine, 'animals', { name: 'Eight' }, session);
      await engine.scheduleFault(session, { status: 500, probability: 0.01 });
      await engine.setLatency(session, { min: 1, max: 9 });
      await engine.setClockOffset(session, 1000);
      await engine.record(session, journalEntry(1));
      const drawnBefore = await act(engine, undefined, session);
      expect(await engine.reset(session)).toMatchObject({
        scenario: 'zoo',
        copied: false,
        faults: 0,
        requests: 0,
        latency: undefined,
        clockOffset: 0,
        counts: { animals: 3 },
      });
      expect((await items(engine, { collection: 'animals', limit: 10 }, session)).map((each) => each.id)).toEqual([
        1, 2, 3,
      ]);
      expect((await created(engine, 'animals', { name: 'Again' }, session)).id).toBe(4);
      await engine.setLatency(session, { min: 1, max: 9 });
      await engine.reset(session);
      await engine.setLatency(session, { min: 1, max: 9 });
      expect(drawnBefore.kind).toBe('done');
      // Draws start again from the session's seed: the first draw after a reset is the first draw ever.
      const again = await act(engine, undefined, session);
      const memory = memorySession(session, { min: 1, max: 9 });
      expect(again).toMatchObject({ delayMs: 1 + memory.random() * 8 });
      expect(first.kind).toBe('done');
    });
  });
});

function fnv(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
