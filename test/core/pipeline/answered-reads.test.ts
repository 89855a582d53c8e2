import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultBasePath } from '../../../src/core/create-mock-core.js';
import type { PlainRequest, PlainResponse } from '../../../src/core/http/plain-http.js';
import type { Mock } from '../../../src/index.js';
import { createTestMock, testKey } from '../../support/create-test-mock.js';
import { petResource } from '../../support/kit-model.js';
import { onTestClock, untilTimers, watched } from '../../support/test-clock.js';

// A read the mock has answered at the store's revision is sent again from its cache without the store reading the
// items (issue 35): every stage around it still runs. Each test compares an answer served so with the first one.

const collection = `${defaultBasePath}${petResource.collectionPath}`;
const listId = petResource.operations.list?.operationId ?? '';
const key = { authorization: `Bearer ${testKey}` };

function request(method: string, path: string, headers: PlainRequest['headers'] = key, body?: string): PlainRequest {
  const [pathname = '', query = ''] = path.split('?');
  const plain: PlainRequest = { method, path: pathname, query, headers };
  if (body !== undefined) {
    plain.headers = { ...headers, 'content-type': 'application/json' };
    plain.body = new TextEncoder().encode(body);
  }
  return plain;
}

const text = (response: PlainResponse) => new TextDecoder().decode(response.body);
/** What a client sees of an answer but its own request id. */
const seen = (response: PlainResponse) => {
  const { 'x-request-id': id, ...headers } = response.headers;
  return { status: response.status, headers, body: text(response), id: typeof id };
};

/** Counts the store's reads of a collection from now on (the short path reads none). */
function countReads(mock: Mock): () => number {
  const spy = vi.spyOn(mock.store, 'collection');
  return () => spy.mock.calls.length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a read answered at the same revision of the store', () => {
  it('gives every answer from the cache headers of its own, with its own request id, in the order of the first', async () => {
    const mock = createTestMock();
    const first = mock.handleNow(request('GET', `${collection}?limit=3`, { ...key, 'x-request-id': 'first' }));
    const second = mock.handleNow(request('GET', `${collection}?limit=3`, { ...key, 'x-request-id': 'second' }));
    const third = mock.handleNow(request('GET', `${collection}?limit=3`, key));
    if (first instanceof Promise || second instanceof Promise || third instanceof Promise) {
      throw new Error('the memory store answers at once');
    }
    expect(first.headers['x-request-id']).toBe('first');
    expect(second.headers['x-request-id']).toBe('second');
    expect(third.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set([first.headers, second.headers, third.headers]).size).toBe(3);
    expect(Object.keys(second.headers)).toEqual(Object.keys(first.headers));
    expect(Object.keys(third.headers).at(-1)).toBe('x-request-id');
    second.headers['x-changed'] = 'only here';
    const fourth = mock.handleNow(request('GET', `${collection}?limit=3`, key)) as PlainResponse;
    expect(fourth.headers['x-changed']).toBeUndefined();
    expect(seen(fourth)).toEqual({ ...seen(first), id: 'string' });
  });

  it('sends a page again with the same status, headers and bytes, without reading the items', async () => {
    const mock = createTestMock();
    const first = await mock.handle(request('GET', `${collection}?limit=20`));
    const reads = countReads(mock);
    const again = await mock.handle(request('GET', `${collection}?limit=20`));
    expect(reads()).toBe(0);
    expect(first.status).toBe(200);
    expect(seen(again)).toEqual(seen(first));
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('reads the items again once a write changes the revision, and the page shows the write', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    const everything = `${collection}?limit=100`;
    const before = await mock.handle(request('GET', everything));
    const created = await mock.handle(request('POST', collection, key, '{"name":"Short","categoryId":1}'));
    expect(created.status).toBe(201);
    const reads = countReads(mock);
    const after = await mock.handle(request('GET', everything));
    expect(reads()).toBeGreaterThan(0);
    expect(text(after)).not.toBe(text(before));
    expect(text(after)).toContain('"name":"Short"');
  });

  it('sends an item read by id again without reading it, and still answers 404 for an id it never found', async () => {
    const mock = createTestMock();
    const item = `${collection}/1`;
    const first = await mock.handle(request('GET', item));
    const reads = countReads(mock);
    const again = await mock.handle(request('GET', item));
    expect(reads()).toBe(0);
    expect(seen(again)).toEqual(seen(first));
    const missing = await mock.handle(request('GET', `${collection}/999999`));
    expect(missing.status).toBe(404);
    expect(reads()).toBe(1);
  });

  it('sends each of two items whose ids differ only beyond 2^53 as its own, from the second read on', async () => {
    const ids = [9223372036854775806n, 9223372036854775807n];
    const mock = createTestMock({
      scenario: 'big',
      fixtures: {
        big: {
          description: 'ids at the end of int64',
          pets: ids.map((id) => ({ id, name: `Pet ${id}`, categoryId: 1 })),
        },
      },
    });
    for (const id of ids) expect(text(await mock.handle(request('GET', `${collection}/${id}`)))).toContain(`${id}`);
    const reads = countReads(mock);
    for (const id of ids) {
      const again = await mock.handle(request('GET', `${collection}/${id}`));
      expect(again.status).toBe(200);
      expect(text(again)).toBe(`{"id":${id},"name":"Pet ${id}","categoryId":1}`);
    }
    expect(reads()).toBe(0);
  });

  it('serves each session its own page: a write in one session is not hidden by another’s answer', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    const everything = `${collection}?limit=100`;
    const other = { ...key, 'petstore-session': 'other' };
    const shared = await mock.handle(request('GET', everything));
    await mock.handle(request('POST', collection, other, '{"name":"Elsewhere","categoryId":1}'));
    const inOther = await mock.handle(request('GET', everything, other));
    const inDefault = await mock.handle(request('GET', everything));
    expect(text(inOther)).toContain('"name":"Elsewhere"');
    expect(text(inDefault)).toBe(text(shared));
  });

  it('journals the answer sent again as it journaled the first, response body included', async () => {
    const mock = createTestMock();
    await mock.handle(request('GET', `${collection}?limit=3`));
    await mock.handle(request('GET', `${collection}?limit=3`));
    const entries = mock.journal.list();
    expect(entries).toHaveLength(2);
    // All but what differs between two requests: the id, the time and the duration.
    const [first, again] = entries.map(({ id, time, durationMs, ...rest }) => ({
      ...rest,
      id: typeof id,
      time: typeof time,
      durationMs: typeof durationMs,
    }));
    expect(again).toEqual(first);
    expect(String(entries[1]?.responseBody)).toContain('"id":');
  });

  it('takes a scheduled fault first, once, then sends the answer again', async () => {
    const mock = createTestMock();
    const first = await mock.handle(request('GET', `${collection}?limit=20`));
    mock.scheduleFault({ operationId: listId, status: 503 });
    const faulted = await mock.handle(request('GET', `${collection}?limit=20`));
    expect(faulted.status).toBe(503);
    expect(JSON.parse(text(faulted))).toMatchObject({ status: 503 });
    expect(mock.faults()).toEqual([]);
    const again = await mock.handle(request('GET', `${collection}?limit=20`));
    expect(seen(again)).toEqual(seen(first));
  });

  it('still refuses a request without a key, or with a bad query, for a page it has answered', async () => {
    const mock = createTestMock();
    expect((await mock.handle(request('GET', `${collection}?limit=20`))).status).toBe(200);
    const keyless = await mock.handle(request('GET', `${collection}?limit=20`, {}));
    expect(keyless.status).toBe(401);
    expect(keyless.headers['www-authenticate']).toBeDefined();
    expect((await mock.handle(request('GET', `${collection}?limit=-1`))).status).toBe(400);
  });

  it('waits the session’s latency before sending a page it has answered', () =>
    onTestClock(async () => {
      const mock = createTestMock();
      const first = await mock.handle(request('GET', `${collection}?limit=20`));
      mock.setLatency({ min: 80, max: 80 });
      const slow = watched(mock.handle(request('GET', `${collection}?limit=20`)));
      await untilTimers(1);
      await vi.advanceTimersByTimeAsync(79);
      expect(await slow.settled()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen(await slow.promise)).toEqual(seen(first));
    }));

  it('sends each query its own page, however many pages it has answered', async () => {
    const mock = createTestMock();
    const pageOf = async (query: string) =>
      JSON.parse(text(await mock.handle(request('GET', `${collection}?${query}`))));
    expect(await pageOf('limit=3')).toHaveLength(3);
    expect(await pageOf('limit=2')).toHaveLength(2);
    expect(await pageOf('limit=3')).toHaveLength(3);
    const sold = await pageOf('status=sold&limit=100');
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((item: { status?: unknown }) => item.status === 'sold')).toBe(true);
    // The same query in another order is another text: a page of its own, the same page.
    expect(await pageOf('limit=100&status=sold')).toEqual(sold);
    expect(await pageOf('limit=100')).not.toEqual(sold);
  });

  it('sends a page it has answered with this request’s own CORS headers, and none to a request without an Origin', async () => {
    const mock = createTestMock();
    const origin = 'http://localhost:5173';
    const plain = await mock.handle(request('GET', `${collection}?limit=20`));
    const fromPage = await mock.handle(request('GET', `${collection}?limit=20`, { ...key, origin }));
    const plainAgain = await mock.handle(request('GET', `${collection}?limit=20`));
    expect(fromPage.headers['access-control-allow-origin']).toBe(origin);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(plainAgain.headers['access-control-allow-origin']).toBeUndefined();
    expect(text(fromPage)).toBe(text(plain));
  });

  it('answers Prefer with the documented example rather than a page it has answered, and the page again after', async () => {
    const mock = createTestMock();
    const page = await mock.handle(request('GET', `${collection}?limit=20`));
    const preferred = await mock.handle(request('GET', `${collection}?limit=20`, { ...key, prefer: 'code=200' }));
    expect(preferred.status).toBe(200);
    expect(preferred.headers['preference-applied']).toBe('code=200');
    expect(text(preferred)).not.toBe(text(page));
    const again = await mock.handle(request('GET', `${collection}?limit=20`));
    expect(again.headers['preference-applied']).toBeUndefined();
    expect(seen(again)).toEqual(seen(page));
  });
});
