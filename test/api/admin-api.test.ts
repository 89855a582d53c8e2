import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auth, jsonAuth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

describe('the admin API under /__admin', () => {
  let mock: InProcessMock;
  let admin: string;
  beforeEach(async () => {
    mock = await inProcessMock({ scenario: 'one-of-each-status' });
    admin = `${mock.origin}/__admin`;
  });
  afterEach(() => mock.close());

  const switchTo = (name: unknown) =>
    request<{ scenario: string; pets: number }>(`${admin}/scenario`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify({ name }),
    });

  it('lists the shipped scenarios and the current one', async () => {
    const response = await request<{ current: string; scenarios: Array<{ name: string; description: string }> }>(
      `${admin}/scenarios`,
      { headers: auth },
    );
    expect(response.status).toBe(200);
    expect(response.body.current).toBe('one-of-each-status');
    expect(response.body.scenarios.map((s) => s.name).sort()).toEqual(
      ['default', 'edge-cases', 'empty', 'large', 'one-of-each-status'].sort(),
    );
    expect(response.body.scenarios.every((s) => s.description.length > 0)).toBe(true);
  });

  it('switches the store to another scenario', async () => {
    const switched = await switchTo('large');
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({ scenario: 'large', pets: 250 });
    const list = await request<unknown[]>(`${mock.baseUrl}/pets?limit=100`, { headers: auth });
    expect(list.body).toHaveLength(100);
  });

  it('answers 404 scenario_not_found for an unknown scenario and keeps the store as it was', async () => {
    const response = await switchTo('nope');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'scenario_not_found', status: 404 });
    const list = await request<unknown[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.body).toHaveLength(3);
  });

  it('answers 507 store_full, not 500, when a scenario holds more pets than --max-pets, and keeps the store', async () => {
    await mock.close();
    mock = await inProcessMock({ scenario: 'one-of-each-status', maxPets: 100 });
    admin = `${mock.origin}/__admin`;
    const response = await switchTo('large');
    expect(response.status).toBe(507);
    expect(response.body).toMatchObject({ code: 'store_full', status: 507 });
    expect((response.body as unknown as { message: string }).message).toContain('--max-pets');
    const list = await request<unknown[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.body).toHaveLength(3);
  });

  it('answers 400 invalid_prefer, not 500, to a Prefer code on an admin operation without examples', async () => {
    const response = await request<{ code: string }>(`${admin}/reset`, {
      method: 'POST',
      headers: { ...auth, Prefer: 'code=200' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_prefer');
  });

  it.each([[''], [5], [null]])('answers 400 for a scenario name of %j', async (name) => {
    const response = await switchTo(name);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400 });
  });

  it('resets the store to the initial pets of the current scenario', async () => {
    await request(`${mock.baseUrl}/pets`, { method: 'POST', headers: jsonAuth, body: '{"name":"Rex","categoryId":1}' });
    expect((await request<unknown[]>(`${mock.baseUrl}/pets`, { headers: auth })).body).toHaveLength(4);
    const reset = await request(`${admin}/reset`, { method: 'POST', headers: auth });
    expect(reset.body).toEqual({ scenario: 'one-of-each-status', pets: 3 });
    expect((await request<unknown[]>(`${mock.baseUrl}/pets`, { headers: auth })).body).toHaveLength(3);
    const created = await request<{ id: number }>(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.body.id).toBe(4);
  });

  it('resets the whole session to its start: scenario, pets, faults (used or not), latency, journal', async () => {
    await switchTo('large');
    await request(`${mock.baseUrl}/pets`, { method: 'POST', headers: jsonAuth, body: '{"name":"Rex","categoryId":1}' });
    const send = (path: string, method: string, body: unknown) =>
      request(`${admin}${path}`, { method, headers: jsonAuth, body: JSON.stringify(body) });
    await send('/faults', 'POST', { operationId: 'getPet', status: 503 });
    await send('/faults', 'POST', { fault: 'timeout', probability: 0.5 });
    await send('/latency', 'PUT', { min: 40, max: 40 });
    const reset = await request(`${admin}/reset`, { method: 'POST', headers: auth });
    expect(reset.body).toEqual({ scenario: 'one-of-each-status', pets: 3 });
    expect((await request<{ current: string }>(`${admin}/scenarios`, { headers: auth })).body.current).toBe(
      'one-of-each-status',
    );
    expect((await request(`${admin}/faults`, { headers: auth })).body).toEqual({ faults: [] });
    expect((await request(`${admin}/latency`, { headers: auth })).body).toEqual({ min: 0, max: 0 });
    // The reset is not itself kept: the journal reads empty.
    expect((await request(`${admin}/requests`, { headers: auth })).body).toMatchObject({ dropped: 0, requests: [] });
    // As in a new session: the next fault is number 1 again, and the next pet gets the scenario's next id.
    expect((await send('/faults', 'POST', { status: 500 })).body).toMatchObject({ id: 1 });
    await request(`${admin}/faults`, { method: 'DELETE', headers: auth });
    const created = await request<{ id: number }>(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.body.id).toBe(4);
  });

  it('resets only the session the request names', async () => {
    const named = { ...jsonAuth, 'Petstore-Session': 'worker-1' };
    await request(`${admin}/latency`, { method: 'PUT', headers: named, body: '{"min":30,"max":30}' });
    await request(`${admin}/latency`, { method: 'PUT', headers: jsonAuth, body: '{"min":20,"max":20}' });
    await request(`${admin}/reset`, { method: 'POST', headers: { ...auth, 'Petstore-Session': 'worker-1' } });
    expect((await request(`${admin}/latency`, { headers: named })).body).toEqual({ min: 0, max: 0 });
    expect((await request(`${admin}/latency`, { headers: auth })).body).toEqual({ min: 20, max: 20 });
  });

  it('journals API requests with the Authorization header redacted, and clears the journal', async () => {
    await request(`${mock.baseUrl}/pets?limit=2`, { headers: { Authorization: 'Bearer test-key' } });
    await request(`${mock.baseUrl}/pets`, { method: 'POST', headers: jsonAuth, body: '{"name":"Rex","categoryId":1}' });
    const journal = await request<{
      capacity: number;
      requests: Array<{ method: string; url: string; status: number; headers: Record<string, string>; body?: string }>;
    }>(`${admin}/requests`, { headers: auth });
    expect(journal.status).toBe(200);
    expect(journal.body.requests.map((r) => [r.method, r.url, r.status])).toEqual([
      ['GET', '/v1/pets?limit=2', 200],
      ['POST', '/v1/pets', 201],
    ]);
    expect(journal.body.requests[0]?.headers.authorization).toBe('Bearer [redacted]');
    expect(journal.body.requests[1]?.body).toBe('{"name":"Rex","categoryId":1}');
    expect(journal.text).not.toContain('test-key');
    const cleared = await request(`${admin}/requests`, { method: 'DELETE', headers: auth });
    expect(cleared.body).toEqual({ cleared: 2 });
    const empty = await request<{ requests: unknown[] }>(`${admin}/requests`, { headers: auth });
    expect(empty.body.requests).toEqual([]);
  });

  it('journals each response’s body, and admin changes marked as such (but not its own reads)', async () => {
    await request(`${admin}/requests`, { method: 'DELETE', headers: auth });
    await request(`${mock.baseUrl}/pets/1`, { headers: auth });
    await switchTo('one-of-each-status');
    await request(`${admin}/scenarios`, { headers: auth });
    const journal = await request<{
      requests: Array<{ method: string; url: string; status: number; responseBody?: string; admin?: boolean }>;
    }>(`${admin}/requests`, { headers: auth });
    expect(journal.body.requests.map((r) => [r.method, r.url, r.status, r.admin ?? false])).toEqual([
      ['GET', '/v1/pets/1', 200, false],
      ['POST', '/__admin/scenario', 200, true],
    ]);
    expect(JSON.parse(journal.body.requests[0]?.responseBody ?? '{}')).toMatchObject({ id: 1, name: 'Bella' });
    expect(JSON.parse(journal.body.requests[1]?.responseBody ?? '{}')).toEqual({
      scenario: 'one-of-each-status',
      pets: 3,
    });
  });

  it('keeps the journal bounded, dropping the oldest requests', async () => {
    await mock.close();
    mock = await inProcessMock({ journalSize: 3 });
    admin = `${mock.origin}/__admin`;
    for (let limit = 1; limit <= 5; limit++) await request(`${mock.baseUrl}/pets?limit=${limit}`, { headers: auth });
    const journal = await request<{ capacity: number; dropped: number; requests: Array<{ url: string }> }>(
      `${admin}/requests`,
      { headers: auth },
    );
    expect(journal.body.capacity).toBe(3);
    expect(journal.body.dropped).toBe(2);
    expect(journal.body.requests.map((r) => r.url)).toEqual([
      '/v1/pets?limit=3',
      '/v1/pets?limit=4',
      '/v1/pets?limit=5',
    ]);
  });

  it.each([
    ['GET', '/scenarios'],
    ['POST', '/reset'],
    ['GET', '/requests'],
    ['DELETE', '/requests'],
  ])('requires a key for %s %s', async (method, path) => {
    const response = await request(`${admin}${path}`, { method });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers 405 with Allow for a wrong method on an admin path', async () => {
    const response = await request(`${admin}/reset`, { headers: auth });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
