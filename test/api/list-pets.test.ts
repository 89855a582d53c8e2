import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

describe('GET /v1/pets', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ scenario: 'large' });
  });
  afterAll(() => mock.close());

  it('answers the first 20 pets in ascending id order when no limit is given', async () => {
    const response = await request<Pet[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.each([1, 37, 100])('answers exactly %i pets when limit=%i and the store has more', async (limit) => {
    const response = await request<Pet[]>(`${mock.baseUrl}/pets?limit=${limit}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(limit);
  });

  it.each(['available', 'pending', 'sold'])(
    'answers only %s pets, in ascending id order, under status=%s',
    async (status) => {
      const response = await request<Pet[]>(`${mock.baseUrl}/pets?status=${status}&limit=100`, { headers: auth });
      expect(response.status).toBe(200);
      expect(response.body.length).toBeGreaterThan(0);
      expect(response.body.every((pet) => pet.status === status)).toBe(true);
      const ids = response.body.map((pet) => pet.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    },
  );

  it('returns the same pets as filtering the full list by hand', async () => {
    const all = await request<Pet[]>(`${mock.baseUrl}/pets?limit=100`, { headers: auth });
    const sold = await request<Pet[]>(`${mock.baseUrl}/pets?status=sold&limit=100`, { headers: auth });
    const soldInFirstHundred = all.body.filter((pet) => pet.status === 'sold');
    expect(sold.body.slice(0, soldInFirstHundred.length)).toEqual(soldInFirstHundred);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['limit=20&limit=30', 'limit'],
    ['limit=9007199254740993', 'limit'],
    ['status=lost', 'status'],
    ['status=AVAILABLE', 'status'],
    ['page=2', 'page'],
    ['offset=20', 'offset'],
  ])('answers 400 with an Error naming the parameter for ?%s', async (query, field) => {
    const response = await request<{
      code: string;
      message: string;
      status: number;
      details: Array<{ field: string }>;
    }>(`${mock.baseUrl}/pets?${query}`, { headers: auth });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(response.body.message).toContain(`'${field}'`);
    expect(response.body.details.map((detail) => detail.field)).toContain(field);
  });
});

describe('GET /v1/pets on an empty store', () => {
  it('answers 200 with an empty array', async () => {
    const mock = await inProcessMock({ scenario: 'empty' });
    try {
      const response = await request(`${mock.baseUrl}/pets`, { headers: auth });
      expect(response.status).toBe(200);
      expect(response.text).toBe('[]');
    } finally {
      await mock.close();
    }
  });
});

describe('GET /v1/pets after a write', () => {
  it('serves the new pet at once, even when the same page was served just before', async () => {
    const mock = await inProcessMock({ scenario: 'one-of-each-status' });
    try {
      const before = await request<Pet[]>(`${mock.baseUrl}/pets?status=sold`, { headers: auth });
      expect(before.body.map((pet) => pet.id)).toEqual([3]);
      await request(`${mock.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1,"status":"sold"}',
      });
      const after = await request<Pet[]>(`${mock.baseUrl}/pets?status=sold`, { headers: auth });
      expect(after.body.map((pet) => pet.id)).toEqual([3, 4]);
      await request(`${mock.origin}/__admin/reset`, { method: 'POST', headers: auth });
      const reset = await request<Pet[]>(`${mock.baseUrl}/pets?status=sold`, { headers: auth });
      expect(reset.body.map((pet) => pet.id)).toEqual([3]);
    } finally {
      await mock.close();
    }
  });
});
