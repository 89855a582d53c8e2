// A frontend team's test file, as docs/in-process.md tells them to write it: MSW's setupServer with the kit's
// handlers (default options), `onUnhandledRequest: 'error'`, and one reset of the mock before each test. Each test
// changes something a reset must undo: the scenario, pets, faults (some never used), latency, the journal.
// msw-reset-between-tests.test.ts runs it in several shuffled orders; it passes in every one only if the reset
// really takes the mock back to its start.
import { appendFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockHandlers } from '../../../src/msw.js';

const handlers = createMockHandlers();
const server = setupServer(...handlers);
// Any origin's /v1 is the mock's in Node: the app's dev server address, or a staging one.
const app = 'http://localhost:5173';
const api = `${app}/v1`;
const auth = { Authorization: 'Bearer dev-key' };
const json = { ...auth, 'Content-Type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  // The order the tests really ran in, for the runner to see that the orders differ.
  if (process.env.ORDER_FILE) appendFileSync(process.env.ORDER_FILE, `${expect.getState().currentTestName}\n`);
  // RESET_WITH=store is the reset this suite was written to catch: the store alone, back to the current scenario.
  if (process.env.RESET_WITH === 'store') handlers.mock.store.reset();
  else handlers.mock.reset();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const get = async <T>(path: string, base = api): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${base}${path}`, { headers: auth });
  return { status: response.status, body: (await response.json()) as T };
};
const send = async (method: string, path: string, body?: unknown, base = api) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: json,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const admin = `${app}/__admin`;
type Pet = { id: number; name: string; status?: string };

describe('a frontend suite that resets the mock before each test', () => {
  it('starts on the default scenario: 50 generated pets, ids 1 to 50', async () => {
    const { body } = await get<Pet[]>('/pets?limit=100');
    expect(body.map((pet) => pet.id)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  it('gives a created pet the id after the scenario’s highest, 51', async () => {
    expect((await send('POST', '/pets', { name: 'Rex', categoryId: 1 })).body.id).toBe(51);
  });

  it('counts ids from the scenario again in every test', async () => {
    expect((await send('POST', '/pets', { name: 'One', categoryId: 1 })).body.id).toBe(51);
    expect((await send('POST', '/pets', { name: 'Two', categoryId: 2 })).body.id).toBe(52);
    expect((await get<Pet[]>('/pets?limit=100')).body).toHaveLength(52);
  });

  it('switches to the empty scenario', async () => {
    expect((await send('POST', '/scenario', { name: 'empty' }, admin)).body).toEqual({ scenario: 'empty', pets: 0 });
    expect((await get<Pet[]>('/pets')).body).toEqual([]);
  });

  it('switches to one-of-each-status and filters by status', async () => {
    await send('POST', '/scenario', { name: 'one-of-each-status' }, admin);
    expect((await get<Pet[]>('/pets?status=sold')).body.map((pet) => pet.name)).toEqual(['Luna']);
  });

  it('switches in-process, to the large scenario, and creates after its highest id', async () => {
    await handlers.mock.switchScenario('large');
    expect((await send('POST', '/pets', { name: 'Big', categoryId: 1 })).body.id).toBe(251);
  });

  it('finds the scenario it was created with as the current one', async () => {
    expect((await get<{ current: string }>('/scenarios', admin)).body.current).toBe('default');
    expect(handlers.mock.scenario).toBe('default');
  });

  it('fails the next listPets with an injected 503, then answers again', async () => {
    await send('POST', '/faults', { operationId: 'listPets', status: 503 }, admin);
    expect((await get('/pets')).status).toBe(503);
    expect((await get('/pets')).status).toBe(200);
  });

  it('schedules a fault for getPet that this test never uses', async () => {
    const fault = await send('POST', '/faults', { operationId: 'getPet', status: 500 }, admin);
    expect(fault.body).toMatchObject({ id: 1, operationId: 'getPet', status: 500, times: 1 });
  });

  it('schedules a broken connection for every request until cleared, and never sends one', async () => {
    const fault = await send('POST', '/faults', { fault: 'connection_reset', probability: 1 }, admin);
    expect(fault.body).toMatchObject({ id: 1, fault: 'connection_reset' });
  });

  it('reads a pet with getPet, untouched by faults scheduled before', async () => {
    expect(await get<Pet>('/pets/1')).toMatchObject({ status: 200, body: { id: 1 } });
  });

  it('lists pets without a broken connection left over', async () => {
    await expect(fetch(`${api}/pets`, { headers: auth })).resolves.toMatchObject({ status: 200 });
  });

  it('finds no fault scheduled', async () => {
    expect((await get<{ faults: unknown[] }>('/faults', admin)).body.faults).toEqual([]);
  });

  it('sets a latency of 250 ms at run time', async () => {
    await send('PUT', '/latency', { min: 250, max: 250 }, admin);
    expect((await get('/latency', admin)).body).toEqual({ min: 250, max: 250 });
  });

  it('runs without latency, as the mock was created', async () => {
    expect((await get('/latency', admin)).body).toEqual({ min: 0, max: 0 });
    expect(handlers.mock.session('default').journal.size).toBe(0);
  });

  it('journals only the requests of this test', async () => {
    await get('/pets?limit=1');
    await get('/pets/2');
    expect(handlers.mock.journal.list().map((entry) => entry.url)).toEqual(['/v1/pets?limit=1', '/v1/pets/2']);
  });

  it('answers any origin’s /v1, and leaves other requests to onUnhandledRequest', async () => {
    expect((await get<Pet[]>('/pets?limit=2', 'https://staging.example.test/v1')).body).toHaveLength(2);
    await expect(fetch(`${app}/api/v1/pets`)).rejects.toThrow();
  });
});
