import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockHandlers } from '../../src/msw.js';
import { petsIn } from '../support/kit-model.js';

const base = 'https://api.example.test/v1';
const handlers = createMockHandlers({ baseUrl: base, keys: ['msw-key'], scenario: 'one-of-each-status' });
const server = setupServer(...handlers);
const auth = { Authorization: 'Bearer msw-key' };
const json = { ...auth, 'Content-Type': 'application/json' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => handlers.mock.reset());
afterAll(() => server.close());

describe('createMockHandlers with setupServer', () => {
  it('lists the scenario’s pets from the mock’s store', async () => {
    const response = await fetch(`${base}/pets`, { headers: auth });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Array<{ name: string }>).map((pet) => pet.name)).toEqual([
      'Bella',
      'Max',
      'Luna',
    ]);
  });

  it('keeps what a create stores, and reads it back exactly, int64 included', async () => {
    const created = await fetch(`${base}/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Zoë 🐶","categoryId":9223372036854775807,"status":"pending"}',
    });
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('{"id":4,"name":"Zoë 🐶","categoryId":9223372036854775807,"status":"pending"}');
    const read = await fetch(`${base}/pets/4`, { headers: auth });
    expect(await read.text()).toBe('{"id":4,"name":"Zoë 🐶","categoryId":9223372036854775807,"status":"pending"}');
    expect(petsIn(handlers.mock.store).size).toBe(4);
  });

  it('answers 401 with an Error body and WWW-Authenticate without a key', async () => {
    const response = await fetch(`${base}/pets`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers 400 naming the field for an invalid body, and stores nothing', async () => {
    const response = await fetch(`${base}/pets`, {
      method: 'POST',
      headers: json,
      body: '{"name":"Rex","categoryId":1.0}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'invalid_body',
      message: "body field 'categoryId' must be integer (1.0 is written as a decimal)",
    });
    expect(petsIn(handlers.mock.store).size).toBe(3);
  });

  it('honours Prefer and sends the deprecation headers of getPet', async () => {
    const response = await fetch(`${base}/pets/1`, { headers: { ...auth, Prefer: 'code=404' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('preference-applied')).toBe('code=404');
    expect(response.headers.get('deprecation')).toBe('@1795305600');
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('serves the admin API beside the API, on the same store', async () => {
    const switched = await fetch('https://api.example.test/__admin/scenario', {
      method: 'POST',
      headers: json,
      body: '{"name":"empty"}',
    });
    expect(await switched.json()).toEqual({ scenario: 'empty', pets: 0 });
    expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toEqual([]);
  });

  it('turns an injected network fault into HttpResponse.error(): fetch rejects', async () => {
    await fetch('https://api.example.test/__admin/faults', {
      method: 'POST',
      headers: json,
      body: '{"fault":"connection_reset","operationId":"listPets"}',
    });
    await expect(fetch(`${base}/pets`, { headers: auth })).rejects.toThrow(TypeError);
    expect((await fetch(`${base}/pets`, { headers: auth })).status).toBe(200);
  });

  it('keeps sessions apart through MSW too', async () => {
    await fetch(`${base}/pets`, {
      method: 'POST',
      headers: { ...json, 'Petstore-Session': 'storybook' },
      body: '{"name":"Only in storybook","categoryId":1}',
    });
    expect(
      await (await fetch(`${base}/pets`, { headers: { ...auth, 'Petstore-Session': 'storybook' } })).json(),
    ).toHaveLength(4);
    expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toHaveLength(3);
  });
});

describe('createMockHandlers() without a baseUrl, in Node', () => {
  const defaults = createMockHandlers({ scenario: 'one-of-each-status' });
  const mswServer = setupServer(...defaults);
  beforeAll(() => {
    server.close();
    mswServer.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => mswServer.close());

  it.each(['http://localhost:5173', 'https://staging.example.test', 'http://127.0.0.1:8080'])(
    'answers /v1 and /__admin of any origin: %s',
    async (origin) => {
      const list = await fetch(`${origin}/v1/pets`, { headers: { Authorization: 'Bearer dev-key' } });
      expect(list.status).toBe(200);
      expect(await list.json()).toHaveLength(3);
      expect((await fetch(`${origin}/__admin/health`)).status).toBe(200);
    },
  );

  it('leaves a path that merely contains /v1 to onUnhandledRequest, neither answered 404 nor let out to the network', async () => {
    await expect(fetch('http://localhost:5173/api/v1/pets')).rejects.toThrow(/\[MSW\].*"error" strategy/);
    await expect(fetch('http://localhost:5173/V1/pets')).rejects.toThrow(/\[MSW\].*"error" strategy/);
  });
});

describe('a CORS preflight whose headers a DOM inside Node dropped, as happy-dom’s reach MSW 3', () => {
  const handlers = createMockHandlers({ baseUrl: 'https://api.example.test/v1' });
  const domServer = setupServer(...handlers);
  beforeAll(() => domServer.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => {
    domServer.close();
    vi.unstubAllGlobals();
  });
  const bareOptions = () => fetch(`${base}/pets`, { method: 'OPTIONS' });

  it('is answered as the preflight of the DOM’s page when a DOM gives a location', async () => {
    vi.stubGlobal('location', { origin: 'http://localhost:3000' });
    const response = await bareOptions();
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('stays an OPTIONS the API does not have (405) without a DOM', async () => {
    vi.unstubAllGlobals();
    expect((await bareOptions()).status).toBe(405);
  });
});
