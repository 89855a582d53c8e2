import { afterEach, describe, expect, it } from 'vitest';
import { StoreFullError } from '../../src/core/store/pet-store.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { auth, jsonAuth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

describe('the store size limit (maxPets)', () => {
  let mock: InProcessMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  const create = (name: string) =>
    request<ErrorBody & { id: number }>(`${mock?.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify({ name, categoryId: 1 }),
    });

  it('answers 507 store_full with an Error body once the store holds maxPets, and stores nothing', async () => {
    mock = await inProcessMock({ scenario: 'one-of-each-status', maxPets: 4 });
    expect((await create('fourth')).status).toBe(201);
    const refused = await create('fifth');
    expect(refused.status).toBe(507);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(refused.body).toEqual({
      code: 'store_full',
      message:
        'a new pet would make the store hold 5 pets, more than its maximum of 4 (--max-pets); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)',
      status: 507,
    });
    const listed = await request<Array<{ id: number; name: string }>>(`${mock.baseUrl}/pets?limit=100`, {
      headers: auth,
    });
    expect(listed.body.map((pet) => pet.name)).toEqual(['Bella', 'Max', 'Luna', 'fourth']);
  });

  it('accepts creates again after an admin reset', async () => {
    mock = await inProcessMock({ scenario: 'one-of-each-status', maxPets: 4 });
    await create('fourth');
    expect((await create('fifth')).status).toBe(507);
    await request(`${mock.origin}/__admin/reset`, { method: 'POST', headers: auth });
    expect((await create('again')).status).toBe(201);
  });

  it('holds at most 100,000 pets by default', () => {
    expect(() => createNodeMock({ pets: 100_001 })).toThrow(
      "scenario 'default' would make the store hold 100001 pets, more than its maximum of 100000",
    );
  });

  it('refuses to start with a scenario larger than maxPets, saying how many pets and the maximum', () => {
    let thrown: unknown;
    try {
      createNodeMock({ scenario: 'large', maxPets: 100 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StoreFullError);
    expect((thrown as Error).message).toMatch(
      /^scenario 'large' would make the store hold 250 pets, more than its maximum of 100 /,
    );
  });

  it('starts with a scenario exactly as large as maxPets', () => {
    expect(createNodeMock({ scenario: 'large', maxPets: 250 }).store.size).toBe(250);
  });
});
