import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, jsonAuth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

describe('the Prefer header', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ scenario: 'one-of-each-status' });
  });
  afterAll(() => mock.close());

  it('answers the documented 404 example of getPet for Prefer: code=404, even for a pet that exists', async () => {
    const response = await request(`${mock.baseUrl}/pets/1`, { headers: { ...auth, Prefer: 'code=404' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'pet_not_found', message: 'no pet has id 42', status: 404 });
    expect(response.headers.get('preference-applied')).toBe('code=404');
  });

  it('answers the documented 401 example with a valid key', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, Prefer: 'code=401' } });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
    // Every 401 says how to authenticate, a chosen example as much as a real refusal.
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
  });

  it('answers the documented 201 example for createPet without storing anything', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, Prefer: 'code=201' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: 4, name: 'Bella', categoryId: 1, status: 'available' });
    const list = await request<unknown[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.body).toHaveLength(3);
  });

  it('answers the documented 400 example for createPet', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, Prefer: 'code=400' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400 });
  });

  it('still validates the request first: an invalid request gets its real 400', async () => {
    const response = await request(`${mock.baseUrl}/pets?limit=0`, { headers: { ...auth, Prefer: 'code=200' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_parameter' });
  });

  it.each([
    ['a status the operation does not document', 'code=500', 'not a documented response'],
    ['a status of listPets that only createPet documents', 'code=201', 'not a documented response'],
    ['a status that is not a number', 'code=abc', 'three-digit'],
    ['an example without a code', 'example=foo', 'needs code'],
    ['an example the response does not have', 'code=200, example=nope', 'not an example'],
  ])('answers 400 invalid_prefer for %s', async (_case, prefer, words) => {
    const response = await request<{ code: string; message: string }>(`${mock.baseUrl}/pets`, {
      headers: { ...auth, Prefer: prefer },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_prefer');
    expect(response.body.message).toContain(words);
  });

  it('ignores preferences it does not know, as RFC 7240 asks', async () => {
    const response = await request<unknown[]>(`${mock.baseUrl}/pets`, {
      headers: { ...auth, Prefer: 'respond-async, wait=5' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(3);
  });
});
