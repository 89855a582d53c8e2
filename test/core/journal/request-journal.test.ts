import { describe, expect, it } from 'vitest';
import { RequestJournal } from '../../../src/core/journal/request-journal.js';
import { journalEntry } from '../../support/journal-entry.js';

const bytes = (text: string) => new TextEncoder().encode(text);

const ids = (journal: RequestJournal): string[] => journal.list().map((e) => e.id);

describe('RequestJournal', () => {
  it('keeps 500 entries and 16 KiB of body by default', () => {
    const journal = new RequestJournal();
    expect(journal.capacity).toBe(500);
    expect(journal.bodyLimit).toBe(16 * 1024);
  });

  it('redacts secret headers recorded as the client sent them, whenever the journal is read', () => {
    const journal = new RequestJournal(5);
    journal.record(
      journalEntry(1, { headers: { authorization: 'Bearer s3cret-key', cookie: 'sid=s3cret-key', accept: '*/*' } }),
    );
    const serialised = JSON.stringify(journal.list());
    expect(serialised).not.toContain('s3cret-key');
    expect(journal.list()[0]?.headers).toEqual({
      authorization: 'Bearer [redacted]',
      cookie: '[redacted]',
      accept: '*/*',
    });
  });

  it('redacts X-Auth-Token, Api-Key and credential query values, and keeps ordinary ones', () => {
    const journal = new RequestJournal(5);
    journal.record(
      journalEntry(1, {
        url: '/v1/pets?limit=5&api_key=k-s3cret&token=t-s3cret&status=sold',
        headers: {
          'x-auth-token': 'a-s3cret',
          'api-key': 'b-s3cret',
          'petstore-session': 'worker-1',
          'x-request-id': 'req-1',
          'content-type': 'application/json',
        },
      }),
    );
    const [read] = journal.list();
    expect(JSON.stringify(read)).not.toContain('s3cret');
    expect(read?.url).toBe('/v1/pets?limit=5&api_key=[redacted]&token=[redacted]&status=sold');
    expect(read?.headers).toEqual({
      'x-auth-token': '[redacted]',
      'api-key': '[redacted]',
      'petstore-session': 'worker-1',
      'x-request-id': 'req-1',
      'content-type': 'application/json',
    });
  });

  it('refuses a capacity below one', () => {
    expect(() => new RequestJournal(0)).toThrow(RangeError);
    expect(() => new RequestJournal(-5)).toThrow(RangeError);
  });

  it('lists the recorded requests oldest first', () => {
    const journal = new RequestJournal(5);
    for (let n = 1; n <= 3; n++) journal.record(journalEntry(n));
    expect(ids(journal)).toEqual(['req-1', 'req-2', 'req-3']);
    expect(journal.dropped).toBe(0);
  });

  it('never holds more than its capacity, dropping the oldest and counting them', () => {
    const journal = new RequestJournal(3);
    for (let n = 1; n <= 5; n++) journal.record(journalEntry(n));
    expect(ids(journal)).toEqual(['req-3', 'req-4', 'req-5']);
    expect(journal.dropped).toBe(2);
  });

  it('stays in order, oldest first, after wrapping around several times', () => {
    const journal = new RequestJournal(4);
    for (let n = 1; n <= 11; n++) {
      journal.record(journalEntry(n));
      const expected = Array.from({ length: Math.min(n, 4) }, (_, i) => `req-${n - Math.min(n, 4) + 1 + i}`);
      expect(ids(journal)).toEqual(expected);
    }
    expect(journal.dropped).toBe(7);
  });

  it('returns a copy of its list, so changing it leaves the journal alone', () => {
    const journal = new RequestJournal(3);
    journal.record(journalEntry(1));
    journal.list().pop();
    expect(ids(journal)).toEqual(['req-1']);
  });

  it('empties on clear, returns how many entries it held and resets the dropped count', () => {
    const journal = new RequestJournal(2);
    for (let n = 1; n <= 3; n++) journal.record(journalEntry(n));
    expect(journal.clear()).toBe(2);
    expect(journal.list()).toEqual([]);
    expect(journal.dropped).toBe(0);
    journal.record(journalEntry(4));
    journal.record(journalEntry(5));
    journal.record(journalEntry(6));
    expect(ids(journal)).toEqual(['req-5', 'req-6']);
    expect(journal.dropped).toBe(1);
  });

  it('cuts a body longer than the limit and marks it truncated, without changing the bytes it was given', () => {
    const journal = new RequestJournal(5, 10);
    const original = journalEntry(1, { body: bytes('{"name":"Bellatrix"}') });
    journal.record(original);
    expect(journal.list()[0]).toMatchObject({ body: '{"name":"B', bodyTruncated: true });
    expect(new TextDecoder().decode(original.body)).toBe('{"name":"Bellatrix"}');
  });

  it('keeps a body within the limit whole, without a truncated mark', () => {
    const journal = new RequestJournal(5, 10);
    journal.record(journalEntry(1, { body: bytes('0123456789') }));
    journal.record(journalEntry(2));
    const [withBody, withoutBody] = journal.list();
    expect(withBody?.body).toBe('0123456789');
    expect(withBody).not.toHaveProperty('bodyTruncated');
    expect(withoutBody).not.toHaveProperty('body');
  });
});

describe('RequestJournal entries as read', () => {
  it('gives the time the request arrived, the response status and body, and a rounded duration', () => {
    const journal = new RequestJournal(5);
    journal.record(
      journalEntry(7, { status: 201, responseBody: bytes('{"id":9223372036854775807}'), durationMs: 1.23456 }),
    );
    expect(journal.list()[0]).toEqual({
      id: 'req-7',
      time: '2030-01-01T00:00:07.000Z',
      method: 'GET',
      url: '/v1/pets?n=7',
      headers: {},
      status: 201,
      responseBody: '{"id":9223372036854775807}',
      durationMs: 1.23,
    });
  });

  it('bounds response bodies like request bodies', () => {
    const journal = new RequestJournal(5, 4);
    journal.record(journalEntry(1, { responseBody: bytes('[1,2,3]') }));
    expect(journal.list()[0]).toMatchObject({ responseBody: '[1,2', responseBodyTruncated: true });
  });

  it('keeps bytes that are not UTF-8 as base64, marked so, instead of mangling them', () => {
    const journal = new RequestJournal(5);
    journal.record(journalEntry(1, { body: new Uint8Array([0xff, 0xfe, 0x00, 0x41]) }));
    expect(journal.list()[0]).toMatchObject({ body: '//4AQQ==', bodyEncoding: 'base64' });
  });

  it('leaves out a UTF-8 character cut in two by the limit, rather than showing it broken', () => {
    const journal = new RequestJournal(5, 4);
    journal.record(journalEntry(1, { body: bytes('abc€') }));
    expect(journal.list()[0]).toMatchObject({ body: 'abc', bodyTruncated: true });
  });

  it('marks admin calls and injected faults', () => {
    const journal = new RequestJournal(5);
    journal.record(journalEntry(1, { admin: true, method: 'POST', url: '/__admin/reset' }));
    journal.record(journalEntry(2, { fault: 'connection_reset' }));
    expect(journal.list().map((e) => [e.admin, e.fault])).toEqual([
      [true, undefined],
      [undefined, 'connection_reset'],
    ]);
  });
});
