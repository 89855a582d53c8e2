import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/core/json/exact-json.js';
import { auth, createTestMock, jsonAuth } from '../support/create-test-mock.js';

const store = (query = '', session?: string) =>
  new Request(`http://mock.test/__admin/store${query}`, {
    headers: session ? { ...auth, 'Petstore-Session': session } : auth,
  });

describe('GET /__admin/store: a session’s data, read without going through the API', () => {
  it('answers the scenario, the store’s size, the filters the document gives, and the first items', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    const response = await mock.fetch(store('?limit=2'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      scenario: 'one-of-each-status',
      size: 3,
      fields: ['id', 'name', 'categoryId', 'status'],
      filters: [{ name: 'status', values: ['available', 'pending', 'sold'] }],
      items: [
        { id: 1, name: 'Bella', categoryId: 1, status: 'available' },
        { id: 2, name: 'Max', categoryId: 2, status: 'pending' },
      ],
    });
  });

  it('filters as the API’s list does, and refuses a value the document does not have', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    expect(((await (await mock.fetch(store('?status=sold'))).json()) as { items: unknown[] }).items).toEqual([
      { id: 3, name: 'Luna', categoryId: 3, status: 'sold' },
    ]);
    for (const [query, field] of [
      ['?status=lost', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?name=Luna', 'name'],
    ]) {
      const refused = await mock.fetch(store(query));
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_parameter', details: [{ field }] });
    }
  });

  it('uses no fault scheduled for the session, and goes into no journal', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    const qa = mock.session('w2');
    qa.scheduleFault({ status: 503 });
    for (let read = 0; read < 3; read++) expect((await mock.fetch(store('', 'w2'))).status).toBe(200);
    expect(qa.faults()).toMatchObject([{ status: 503, times: 1 }]);
    expect(qa.journal.size).toBe(0);
    const worker = await mock.fetch(
      new Request('http://mock.test/v1/pets', { headers: { ...auth, 'Petstore-Session': 'w2' } }),
    );
    expect(worker.status).toBe(503);
  });

  it('reads the session the request names, each with its own pets', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    await mock.fetch(
      new Request('http://mock.test/v1/pets', {
        method: 'POST',
        headers: { ...jsonAuth, 'Petstore-Session': 'w3' },
        body: '{"name":"Only in w3","categoryId":1}',
      }),
    );
    const w3 = (await (await mock.fetch(store('', 'w3'))).json()) as { size: number; items: Array<{ name: string }> };
    expect(w3.size).toBe(4);
    expect(w3.items.map((pet) => pet.name)).toContain('Only in w3');
    expect(((await (await mock.fetch(store())).json()) as { size: number }).size).toBe(3);
  });

  it('keeps ids beyond 2^53 exact', async () => {
    const mock = createTestMock({
      scenario: {
        name: 'big',
        fixture: { description: 'big ids', pets: [{ id: 9223372036854775807n, name: 'Big', categoryId: 1 }] },
      },
    });
    const text = await (await mock.fetch(store())).text();
    expect(text).toContain('"id":9223372036854775807');
    expect(parseExactJson(text)).toMatchObject({ items: [{ id: 9223372036854775807n }] });
  });

  it('needs the key, as every admin operation but health does', async () => {
    const mock = createTestMock();
    const response = await mock.fetch(new Request('http://mock.test/__admin/store'));
    expect(response.status).toBe(401);
  });
});
