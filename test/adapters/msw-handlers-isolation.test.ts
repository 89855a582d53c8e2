import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockHandlers } from '../../src/msw.js';
import { petsIn } from '../support/kit-model.js';

describe('two createMockHandlers() calls', () => {
  const first = createMockHandlers({ baseUrl: 'https://one.example.test/v1', scenario: 'empty' });
  const second = createMockHandlers({ baseUrl: 'https://two.example.test/v1', scenario: 'empty' });
  const server = setupServer(...first, ...second);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const auth = { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' };

  it('each have their own store: a pet created through one is not in the other', async () => {
    const created = await fetch('https://one.example.test/v1/pets', {
      method: 'POST',
      headers: auth,
      body: '{"name":"Only here","categoryId":1}',
    });
    expect(created.status).toBe(201);
    expect(await (await fetch('https://one.example.test/v1/pets', { headers: auth })).json()).toHaveLength(1);
    expect(await (await fetch('https://two.example.test/v1/pets', { headers: auth })).json()).toEqual([]);
    expect(petsIn(first.mock.store).size).toBe(1);
    expect(petsIn(second.mock.store).size).toBe(0);
  });

  it('generates the default scenario on demand when no scenario is given', async () => {
    const handlers = createMockHandlers({ baseUrl: 'https://three.example.test/v1' });
    await handlers.mock.ready;
    expect(petsIn(handlers.mock.store).size).toBe(50);
  });
});
