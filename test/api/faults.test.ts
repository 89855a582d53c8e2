import { beforeEach, describe, expect, it } from 'vitest';
import { auth, fetchAny, inProcessMock, jsonAuth, request, type InProcessMock } from '../support/start-server.js';

describe('faults (POST /__admin/faults)', () => {
  let mock: InProcessMock;
  beforeEach(() => {
    mock = inProcessMock({ scenario: 'one-of-each-status', seed: 7 });
  });
  const addFault = (fault: unknown, session?: string) =>
    request<Record<string, unknown>>(`${mock.origin}/__admin/faults`, {
      method: 'POST',
      headers: session ? { ...jsonAuth, 'Petstore-Session': session } : jsonAuth,
      body: JSON.stringify(fault),
    });
  const list = (session?: string) =>
    request(`${mock.baseUrl}/pets`, { headers: session ? { ...auth, 'Petstore-Session': session } : auth });
  const faults = async () =>
    (await request<{ faults: unknown[] }>(`${mock.origin}/__admin/faults`, { headers: auth })).body.faults;

  it('answers the next matching request with the status asked for, in an Error body that says it was injected', async () => {
    const scheduled = await addFault({ status: 503 });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toEqual({ id: 1, status: 503, times: 1 });
    const failed = await list();
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({
      code: 'injected_fault',
      message: 'fault 1 injected for listPets by POST /__admin/faults: status 503',
      status: 503,
    });
    expect((await list()).status).toBe(200);
    expect(await faults()).toEqual([]);
  });

  it.each([418, 429, 500, 502, 599])(
    'injects status %i, documented or not, with a valid Error body',
    async (status) => {
      await addFault({ status, operationId: 'createPet' });
      const response = await request(`${mock.baseUrl}/pets`, {
        method: 'POST',
        headers: jsonAuth,
        body: '{"name":"Rex","categoryId":1}',
      });
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ code: 'injected_fault', status });
    },
  );

  it('refuses a fault beyond the 100 a session may hold with 409 too_many_faults, and schedules nothing', async () => {
    for (let index = 0; index < 100; index++) expect((await addFault({ status: 503, times: 5 })).status).toBe(200);
    const refused = await addFault({ status: 500 });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'too_many_faults',
      message:
        'the session already has 100 faults scheduled, the most it may hold (100); DELETE /__admin/faults clears them, or give one fault a times count',
      status: 409,
    });
    expect(await faults()).toHaveLength(100);
    // Another session has its own allowance.
    expect((await addFault({ status: 500 }, 'worker-2')).status).toBe(200);
  });

  it('hits only the operation it names, and counts down its times', async () => {
    await addFault({ status: 500, operationId: 'getPet', times: 2 });
    expect((await list()).status).toBe(200);
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(500);
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(500);
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200);
  });

  it('leaves a request without a key to authentication: it gets 401 and the fault stays', async () => {
    await addFault({ status: 503 });
    expect((await request(`${mock.baseUrl}/pets`)).status).toBe(401);
    expect((await list()).status).toBe(503);
  });

  it('draws a probability from the seeded generator, so the same seed repeats the same run', async () => {
    const run = async () => {
      const local = inProcessMock({ scenario: 'one-of-each-status', seed: 7 });
      await request(`${local.origin}/__admin/faults`, {
        method: 'POST',
        headers: jsonAuth,
        body: '{"status":500,"probability":0.5}',
      });
      const statuses: number[] = [];
      for (let index = 0; index < 40; index++)
        statuses.push((await request(`${local.baseUrl}/pets`, { headers: auth })).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const hits = first.filter((status) => status === 500).length;
    expect(hits).toBeGreaterThan(5);
    expect(hits).toBeLessThan(35);
  });

  it('schedules faults per session', async () => {
    await addFault({ status: 500 }, 'chaos');
    expect((await list()).status).toBe(200);
    expect((await list('calm')).status).toBe(200);
    expect((await list('chaos')).status).toBe(500);
  });

  it('lists and clears the faults still to come', async () => {
    await addFault({ status: 500, times: 3 });
    await addFault({ fault: 'connection_reset', operationId: 'getPet', probability: 0.25 });
    expect(await faults()).toEqual([
      { id: 1, status: 500, times: 3 },
      { id: 2, fault: 'connection_reset', operationId: 'getPet', probability: 0.25 },
    ]);
    const cleared = await request(`${mock.origin}/__admin/faults`, { method: 'DELETE', headers: auth });
    expect(cleared.body).toEqual({ cleared: 2 });
    expect((await list()).status).toBe(200);
  });

  it('breaks the connection for a network fault: mock.fetch rejects as fetch does', async () => {
    await addFault({ fault: 'connection_reset' });
    await expect(fetchAny(`${mock.baseUrl}/pets`, { headers: auth })).rejects.toThrow(TypeError);
    expect((await list()).status).toBe(200);
    const journal = await request<{ requests: Array<{ url: string; fault?: string; status: number }> }>(
      `${mock.origin}/__admin/requests`,
      { headers: auth },
    );
    expect(journal.body.requests.find((entry) => entry.fault)).toMatchObject({
      url: '/v1/pets',
      fault: 'connection_reset',
      status: 0,
    });
  });

  it('keeps a timeout waiting until the caller gives up', async () => {
    await addFault({ fault: 'timeout' });
    const started = performance.now();
    await expect(fetchAny(`${mock.baseUrl}/pets`, { headers: auth, signal: AbortSignal.timeout(150) })).rejects.toThrow(
      TypeError,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it.each([
    [{}, 'a fault needs exactly one of status'],
    [{ status: 503, fault: 'timeout' }, 'a fault needs exactly one of status'],
    [{ status: 200 }, "body field 'status' must be >= 400"],
    [{ status: 600 }, "body field 'status' must be <= 599"],
    [{ status: 500.5 }, "body field 'status' must be integer"],
    [
      { fault: 'explode' },
      "body field 'fault' must be one of: connection_reset, empty_response, malformed_response, timeout",
    ],
    [{ status: 500, times: 0 }, "body field 'times' must be >= 1"],
    [{ status: 500, probability: 1.5 }, "body field 'probability' must be <= 1"],
    [
      { status: 500, operationId: 'deletePet' },
      "no operation of the API is 'deletePet' (operations: listPets, createPet, getPet)",
    ],
    [{ status: 500, colour: 'red' }, "body field 'colour' is not allowed here"],
  ])('refuses %j with a 400 saying why, and schedules nothing', async (fault, message) => {
    const response = await addFault(fault);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400 });
    expect(String(response.body.message)).toContain(message);
    expect(await faults()).toEqual([]);
  });
});

describe('latency (PUT /__admin/latency)', () => {
  it('changes the latency of one session at run time', async () => {
    const mock = inProcessMock({ scenario: 'one-of-each-status' });
    const put = await request(`${mock.origin}/__admin/latency`, {
      method: 'PUT',
      headers: { ...jsonAuth, 'Petstore-Session': 'slow' },
      body: '{"min":120,"max":120}',
    });
    expect(put.body).toEqual({ min: 120, max: 120 });
    const timed = async (session?: string) => {
      const started = performance.now();
      await request(`${mock.baseUrl}/pets`, { headers: session ? { ...auth, 'Petstore-Session': session } : auth });
      return performance.now() - started;
    };
    expect(await timed('slow')).toBeGreaterThanOrEqual(110);
    expect(await timed()).toBeLessThan(110);
    const read = await request(`${mock.origin}/__admin/latency`, { headers: { ...auth, 'Petstore-Session': 'slow' } });
    expect(read.body).toEqual({ min: 120, max: 120 });
  });

  it('delays neither health, nor the admin API, nor a request without a key', async () => {
    const mock = inProcessMock({ scenario: 'one-of-each-status' });
    const put = (body: string) => request(`${mock.origin}/__admin/latency`, { method: 'PUT', headers: jsonAuth, body });
    expect((await put('{"min":60000,"max":60000}')).status).toBe(200);
    // Each must answer long before the 60 s latency; a race, so that a failure does not wait a minute.
    const soon = async (url: string, init: RequestInit = {}) => {
      const started = performance.now();
      const tooLate = new Promise<'too late'>((resolve) => setTimeout(() => resolve('too late'), 2_000).unref());
      const answered = await Promise.race([request(url, init), tooLate]);
      expect(answered, `${init.method ?? 'GET'} ${url}`).not.toBe('too late');
      return { status: (answered as { status: number }).status, ms: performance.now() - started };
    };
    expect((await soon(`${mock.origin}/__admin/health`)).status).toBe(200);
    expect((await soon(`${mock.origin}/__admin/latency`, { headers: auth })).status).toBe(200);
    expect((await soon(`${mock.baseUrl}/pets`)).status).toBe(401);
    expect((await soon(`${mock.baseUrl}/pets`, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await soon(`${mock.origin}/__admin/requests`, { headers: auth })).status).toBe(200);
    // The call that removes the latency answers at once too, and then the API does.
    expect(
      (await soon(`${mock.origin}/__admin/latency`, { method: 'PUT', headers: jsonAuth, body: '{"min":0,"max":0}' }))
        .status,
    ).toBe(200);
    expect((await soon(`${mock.baseUrl}/pets`, { headers: auth })).status).toBe(200);
  });

  it.each([
    [{ min: 10 }, "body field 'max' is required"],
    [{ min: 20, max: 10 }, 'latency min (20) must not be above max (10)'],
    [{ min: -1, max: 10 }, "body field 'min' must be >= 0"],
    [{ min: 0, max: 60_001 }, "body field 'max' must be <= 60000"],
  ])('refuses %j with a 400, and keeps the latency as it was', async (latency, message) => {
    const mock = inProcessMock();
    const response = await request<{ message: string }>(`${mock.origin}/__admin/latency`, {
      method: 'PUT',
      headers: jsonAuth,
      body: JSON.stringify(latency),
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
    expect((await request(`${mock.origin}/__admin/latency`, { headers: auth })).body).toEqual({ min: 0, max: 0 });
  });
});
