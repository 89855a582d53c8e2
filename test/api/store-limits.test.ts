import { afterEach, describe, expect, it } from 'vitest';
import { StoreFullError } from '../../src/core/store/store-errors.js';
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

describe('the store byte limits (maxStoreBytes, maxTotalStoreBytes)', () => {
  let mock: InProcessMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  const create = (name: string, session?: string) =>
    request<ErrorBody & { id: number }>(`${mock?.baseUrl}/pets`, {
      method: 'POST',
      headers: session ? { ...jsonAuth, 'Petstore-Session': session } : jsonAuth,
      body: JSON.stringify({ name, categoryId: 1 }),
    });
  const sizeOf = (id: number, name: string) => Buffer.byteLength(JSON.stringify({ id, name, categoryId: 1 }));

  it('answers 507 store_full naming the byte limit once a session’s pets would pass it, and stores nothing', async () => {
    const name = 'n'.repeat(10_000);
    mock = inProcessMock({ scenario: 'empty', maxStoreBytes: 3 * sizeOf(1, name) });
    for (let index = 0; index < 3; index++) expect((await create(name)).status).toBe(201);
    const refused = await create(name);
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({
      code: 'store_full',
      message: `a new pet would make the store hold ${4 * sizeOf(1, name)} bytes of pets (as JSON), more than its maximum of ${3 * sizeOf(1, name)} bytes (--max-store-bytes); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)`,
      status: 507,
    });
    expect(mock.mock.store.size).toBe(3);
    // Small pets still fit in what is left.
    expect((await create('x')).status).toBe(507);
    await request(`${mock.origin}/__admin/reset`, { method: 'POST', headers: auth });
    expect((await create(name)).status).toBe(201);
  });

  it('holds every session’s pets together to the mock-wide limit, and frees room when a session is dropped', async () => {
    const name = 'n'.repeat(10_000);
    const one = sizeOf(1, name);
    mock = inProcessMock({ scenario: 'empty', maxStoreBytes: 10 * one, maxTotalStoreBytes: 3 * one });
    expect((await create(name, 'worker-1')).status).toBe(201);
    expect((await create(name, 'worker-2')).status).toBe(201);
    expect((await create(name, 'worker-3')).status).toBe(201);
    const refused = await create(name, 'worker-4');
    expect(refused.status).toBe(507);
    expect(refused.body.code).toBe('store_full');
    expect(refused.body.message).toBe(
      `a new pet would make the sessions' stores hold ${4 * one} bytes of pets (as JSON) together, more than the mock's maximum of ${3 * one} bytes (--max-total-store-bytes); nothing was changed and nothing is evicted (a reset or a dropped session frees room)`,
    );
    await request(`${mock.origin}/__admin/sessions/worker-1`, { method: 'DELETE', headers: auth });
    expect((await create(name, 'worker-4')).status).toBe(201);
  });

  it('counts a session against the mock-wide limit only with what it holds beyond its scenario', async () => {
    // The large scenario's 250 pets are shared by every session, whether it reads them or writes beside them.
    const name = 'n'.repeat(1_000);
    const one = sizeOf(251, name);
    mock = inProcessMock({ scenario: 'large', maxTotalStoreBytes: 3 * one });
    for (let index = 0; index < 20; index++) {
      const listed = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, 'Petstore-Session': `r-${index}` } });
      expect(listed.status).toBe(200);
    }
    expect(mock.mock.store.bytes).toBeGreaterThan(10 * one);
    // A first write keeps only the new pet beside the shared scenario: three writers fit, a fourth does not.
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await create(name, `w-${index}`)).status);
    expect(statuses).toEqual([201, 201, 201, 507]);
  });

  it('refuses to start with a scenario larger than maxStoreBytes', () => {
    expect(() => createNodeMock({ scenario: 'large', maxStoreBytes: 4096 })).toThrow(
      /^scenario 'large' would make the store hold \d+ bytes of pets \(as JSON\), more than its maximum of 4096 bytes/,
    );
  });
});
