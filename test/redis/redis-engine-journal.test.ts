import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/core/journal/request-journal.js';
import { JournalBudget, RequestJournal } from '../../src/core/journal/request-journal.js';
import { act, freshPrefix, openEngine } from '../support/redis-engine.js';
import { noRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

function exchange(id: string, body?: Uint8Array, extra: Partial<Exchange> = {}): Exchange {
  return {
    id,
    startedAt: Date.UTC(2026, 0, 1),
    method: 'POST',
    url: '/v1/animals?token=secret',
    headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
    body,
    status: 201,
    responseBody: new TextEncoder().encode('{"id":9223372036854775807}'),
    durationMs: 0.123456789,
    admin: false,
    ...extra,
  };
}

describe.skipIf(noRedisServer !== undefined)('the request journal in Redis', () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps each entry exactly: bodies as bytes (not UTF-8 too), headers, numbers, the admin mark and the fault', async () => {
    const engine = await openEngine(server.url);
    try {
      await act(engine, undefined, 'w1');
      const binary = new Uint8Array([0, 0xff, 0xfe, 0x80, 10]);
      await engine.record('w1', exchange('a', binary));
      const headers = JSON.parse('{"x-many":["1","2"],"__proto__":"plain"}') as Exchange['headers'];
      await engine.record(
        'w1',
        exchange('b', undefined, { admin: true, fault: 'connection_reset', status: 0, headers }),
      );
      const journal = await engine.journal('w1');
      expect(journal).toMatchObject({ capacity: 500, dropped: 0, omitted: 0 });
      expect(journal.records.map((each) => each.exchange)).toEqual([
        exchange('a', binary),
        exchange('b', undefined, { admin: true, fault: 'connection_reset', status: 0, headers }),
      ]);
      expect(journal.records[0]?.exchange.body).toBeInstanceOf(Uint8Array);
      expect(Object.hasOwn(journal.records[1]?.exchange.headers ?? {}, '__proto__')).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('cuts bodies at the body limit and says so', async () => {
    const engine = await openEngine(server.url, { limits: { journalBodyLimit: 4 } });
    try {
      await act(engine, undefined, 'cut');
      await engine.record('cut', exchange('a', new Uint8Array([1, 2, 3, 4, 5, 6])));
      const [record] = (await engine.journal('cut')).records;
      expect(record?.exchange.body).toEqual(new Uint8Array([1, 2, 3, 4]));
      expect(record).toMatchObject({ bodyTruncated: true, responseBodyTruncated: true });
    } finally {
      await engine.close();
    }
  });

  it('keeps the last entries of a session up to its capacity, counting those dropped; a clear empties it', async () => {
    const engine = await openEngine(server.url, { limits: { journalCapacity: 3 } });
    try {
      await act(engine, undefined, 'bounded');
      for (const id of ['1', '2', '3', '4', '5']) await engine.record('bounded', exchange(id));
      const journal = await engine.journal('bounded');
      expect(journal.records.map((each) => each.exchange.id)).toEqual(['3', '4', '5']);
      expect(journal.dropped).toBe(2);
      expect(await engine.clearJournal('bounded')).toBe(3);
      expect(await engine.journal('bounded')).toMatchObject({ dropped: 0, records: [] });
      expect(await engine.journalUsage()).toMatchObject({ bytes: 0, entries: 0 });
    } finally {
      await engine.close();
    }
  });

  it('holds every journal within the mock’s byte budget: the oldest entries of the whole mock make room, as in memory', async () => {
    const perEntry = 600;
    const body = (n: number) => new Uint8Array(n);
    const maxBytes = 3 * (perEntry + 700);
    const prefix = freshPrefix();
    const engine = await openEngine(server.url, { prefix, limits: { maxJournalBytes: maxBytes } });
    const replica = await openEngine(server.url, { prefix, limits: { maxJournalBytes: maxBytes } });
    const budget = new JournalBudget({ maxBytes });
    const memory = { a: new RequestJournal(500, 16 * 1024, budget), b: new RequestJournal(500, 16 * 1024, budget) };
    try {
      await act(engine, undefined, 'a');
      await act(engine, undefined, 'b');
      const writes: Array<['a' | 'b', string]> = [
        ['a', '1'],
        ['b', '2'],
        ['a', '3'],
        ['b', '4'],
        ['b', '5'],
        ['a', '6'],
      ];
      for (const [index, [session, id]] of writes.entries()) {
        const entry = exchange(id, body(perEntry));
        memory[session].record(entry);
        await (index % 2 === 0 ? engine : replica).record(session, entry);
      }
      for (const session of ['a', 'b'] as const) {
        const journal = await replica.journal(session);
        expect(journal.records.map((each) => each.exchange.id)).toEqual(memory[session].list().map((each) => each.id));
        expect(journal.dropped).toBe(memory[session].dropped);
      }
      expect(await engine.journalUsage()).toEqual({ bytes: budget.usedBytes, maxBytes, entries: budget.entries });
      expect(budget.entries).toBeLessThan(writes.length);
      // A dropped session's entries leave the budget with it.
      await engine.dropSession('a');
      expect((await engine.journalUsage()).entries).toBe(memory.b.size);
    } finally {
      await engine.close();
      await replica.close();
    }
  });

  it('appends what one call carries, of several sessions, as the same appends one at a time would: capacity, budget, a gone session', async () => {
    const perEntry = 600;
    const maxBytes = 4 * (perEntry + 700);
    const engine = await openEngine(server.url, { limits: { maxJournalBytes: maxBytes, journalCapacity: 2 } });
    const budget = new JournalBudget({ maxBytes });
    const memory = { a: new RequestJournal(2, 16 * 1024, budget), b: new RequestJournal(2, 16 * 1024, budget) };
    try {
      await act(engine, undefined, 'a');
      await act(engine, undefined, 'b');
      const writes: Array<['a' | 'b', string]> = [
        ['a', '1'],
        ['a', '2'],
        ['b', '3'],
        ['a', '4'],
        ['a', '5'],
        ['b', '6'],
        ['b', '7'],
        ['b', '8'],
      ];
      for (const [session, id] of writes) memory[session].record(exchange(id, new Uint8Array(perEntry)));
      // One call: entries added and dropped within it (capacity 2), the budget held at its end; a session
      // that does not exist takes nothing.
      await engine.recordAll([
        ...writes.map(([session, id]) => ({ session, exchange: exchange(id, new Uint8Array(perEntry)) })),
        { session: 'gone', exchange: exchange('9') },
      ]);
      for (const session of ['a', 'b'] as const) {
        const journal = await engine.journal(session);
        expect(journal.records.map((each) => each.exchange.id)).toEqual(memory[session].list().map((each) => each.id));
        expect(journal.dropped).toBe(memory[session].dropped);
      }
      expect(await engine.journalUsage()).toEqual({ bytes: budget.usedBytes, maxBytes, entries: budget.entries });
      expect((await engine.sessions()).sessions.map((each) => each.name)).not.toContain('gone');
    } finally {
      await engine.close();
    }
  });

  it('returns at most the read limit: the newest entries that fit, and how many older ones it left out', async () => {
    const engine = await openEngine(server.url, { limits: { maxJournalReadBytes: 2500 } });
    try {
      await act(engine, undefined, 'reader');
      for (const id of ['1', '2', '3', '4']) await engine.record('reader', exchange(id, new Uint8Array(800)));
      const journal = await engine.journal('reader');
      expect(journal.records.map((each) => each.exchange.id)).toEqual(['3', '4']);
      expect(journal.omitted).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('shows on one replica what another served', async () => {
    const prefix = freshPrefix();
    const one = await openEngine(server.url, { prefix });
    const two = await openEngine(server.url, { prefix });
    try {
      await act(one, undefined, 'shared');
      await one.record('shared', exchange('from-one'));
      await two.record('shared', exchange('from-two'));
      expect((await two.journal('shared')).records.map((each) => each.exchange.id)).toEqual(['from-one', 'from-two']);
      expect((await one.journal('shared')).records.map((each) => each.exchange.id)).toEqual(['from-one', 'from-two']);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
