import { describe, expect, it } from 'vitest';
import { JournalBudget, RequestJournal } from '../../../src/core/journal/request-journal.js';
import { journalEntry } from '../../support/journal-entry.js';

/** An entry that holds about `kib` KiB: a body of that size. */
const heavy = (n: number, kib: number) => journalEntry(n, { body: new Uint8Array(kib * 1024).fill(0x61) });
const ids = (journal: RequestJournal): string[] => journal.list().map((entry) => entry.id);

describe('the journals of a mock together', () => {
  it('count what an entry holds: its URL, its headers and its bodies as kept', () => {
    const budget = new JournalBudget();
    const journal = new RequestJournal(5, 16 * 1024, budget);
    journal.record(journalEntry(1));
    const small = budget.usedBytes;
    journal.record(
      journalEntry(2, {
        url: `/v1/pets?q=${'u'.repeat(10_000)}`,
        headers: { 'x-long': 'h'.repeat(5_000) },
        body: new Uint8Array(40_000),
        responseBody: new Uint8Array(3_000),
      }),
    );
    // The URL and header as sent, the request body cut to 16 KiB, the response body whole.
    expect(budget.usedBytes - 2 * small).toBeGreaterThanOrEqual(10_000 + 5_000 + 16 * 1024 + 3_000 - 16);
    expect(budget.usedBytes - 2 * small).toBeLessThan(10_000 + 5_000 + 16 * 1024 + 3_000 + 100);
    expect(budget.entries).toBe(2);
  });

  it('never hold more than their byte budget: the oldest entry of the whole mock makes room, whatever its session', () => {
    const budget = new JournalBudget({ maxBytes: 100 * 1024 });
    const first = new RequestJournal(500, 16 * 1024, budget);
    const second = new RequestJournal(500, 16 * 1024, budget);
    first.record(heavy(1, 10));
    first.record(heavy(2, 10));
    for (let n = 3; n <= 40; n++) {
      second.record(heavy(n, 10));
      expect(budget.usedBytes).toBeLessThanOrEqual(budget.maxBytes);
    }
    // The first session's two entries were the oldest: they went first, and its journal counts them.
    expect(first.size).toBe(0);
    expect(first.dropped).toBe(2);
    expect(second.size).toBe(9);
    expect(ids(second)).toEqual(Array.from({ length: 9 }, (_, index) => `req-${32 + index}`));
    expect(second.dropped).toBe(29);
    expect(budget.entries).toBe(9);
  });

  it('free what a cleared journal held, and what its own capacity dropped', () => {
    const budget = new JournalBudget({ maxBytes: 1024 * 1024 });
    const journal = new RequestJournal(3, 16 * 1024, budget);
    for (let n = 1; n <= 10; n++) journal.record(heavy(n, 10));
    expect(budget.entries).toBe(3);
    expect(budget.usedBytes).toBeLessThan(3 * 11 * 1024);
    journal.clear();
    expect(budget.usedBytes).toBe(0);
    expect(budget.entries).toBe(0);
  });

  it('keep their bookkeeping in proportion while one quiet session holds the oldest entry', () => {
    const budget = new JournalBudget({ maxBytes: 10 * 1024 * 1024 });
    const quiet = new RequestJournal(500, 16 * 1024, budget);
    const busy = new RequestJournal(5, 16 * 1024, budget);
    quiet.record(journalEntry(0));
    for (let n = 1; n <= 100_000; n++) busy.record(journalEntry(n));
    expect(budget.entries).toBe(6);
    expect(ids(quiet)).toEqual(['req-0']);
  });
});

describe('one read of a journal', () => {
  it('returns the newest entries whose JSON fits maxReadBytes, oldest first, and says how many it left out', () => {
    const budget = new JournalBudget({ maxReadBytes: 100 * 1024 });
    const journal = new RequestJournal(500, 16 * 1024, budget);
    for (let n = 1; n <= 50; n++) journal.record(heavy(n, 16));
    const read = journal.read();
    expect(JSON.stringify(read.requests).length).toBeLessThanOrEqual(100 * 1024);
    expect(read.requests.length).toBeGreaterThan(3);
    expect(read.omitted).toBe(50 - read.requests.length);
    expect(read.maxReadBytes).toBe(100 * 1024);
    expect(read.requests.at(-1)?.id).toBe('req-50');
    expect(read.requests.map((entry) => entry.id)).toEqual(ids(journal).slice(read.omitted));
  });

  it('returns every entry when they fit, leaving nothing out', () => {
    const journal = new RequestJournal(5);
    for (let n = 1; n <= 3; n++) journal.record(journalEntry(n));
    expect(journal.read()).toEqual({ requests: journal.list(), omitted: 0, maxReadBytes: 2 * 1024 * 1024 });
  });

  it('returns the newest entry even when it alone is larger than the limit', () => {
    const journal = new RequestJournal(5, 16 * 1024, new JournalBudget({ maxReadBytes: 1024 }));
    journal.record(heavy(1, 4));
    journal.record(heavy(2, 4));
    expect(journal.read()).toMatchObject({ omitted: 1, requests: [{ id: 'req-2' }] });
  });
});
