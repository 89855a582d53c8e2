import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/core/create-mock.js';
import { auth, request, startMock, startServer } from '../support/start-server.js';

async function firstHundred(options: Parameters<typeof startMock>[0]): Promise<string> {
  const mock = await startMock(options);
  try {
    return (await request(`${mock.baseUrl}/pets?limit=100`, { headers: auth })).text;
  } finally {
    await mock.close();
  }
}

describe('seeded data and scenarios', () => {
  it('serves byte-identical pets across restarts with the same seed and count', async () => {
    const first = await firstHundred({ seed: 42, pets: 80 });
    const second = await firstHundred({ seed: 42, pets: 80 });
    expect(second).toBe(first);
    expect(JSON.parse(first)).toHaveLength(80);
  });

  it('serves different pets for a different seed', async () => {
    expect(await firstHundred({ seed: 1 })).not.toBe(await firstHundred({ seed: 2 }));
  });

  it('serves the number of pets --pets asks for', async () => {
    expect(JSON.parse(await firstHundred({ pets: 7 }))).toHaveLength(7);
  });

  it('loads a scenario from a fixture file given by path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-fixture-'));
    const file = join(dir, 'my-shop.yaml');
    writeFileSync(file, 'description: mine\npets:\n  - { id: 10, name: Ada, categoryId: 3, status: sold }\n');
    const mock = await startMock({ scenario: file });
    try {
      const list = await request(`${mock.baseUrl}/pets`, { headers: auth });
      expect(list.body).toEqual([{ id: 10, name: 'Ada', categoryId: 3, status: 'sold' }]);
      const scenarios = await request<{ current: string }>(`${mock.origin}/__admin/scenarios`, { headers: auth });
      expect(scenarios.body.current).toBe('my-shop');
    } finally {
      await mock.close();
    }
  });

  it('refuses to start with a fixture that breaks the Pet schema, naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-fixture-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'description: broken\npets:\n  - { id: 1, name: Ada, categoryId: 3, status: lost }\n');
    expect(() => createApp({ scenario: file })).toThrow(/broken\.yaml.*'pets\[0\]\.status'/);
  });

  it('adds the requested latency before answering', async () => {
    const server = await startServer(createApp({ keys: ['test-key'], latency: { min: 150, max: 150 } }));
    try {
      const started = performance.now();
      await request(`${server.baseUrl}/pets`, { headers: auth });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await server.close();
    }
  });
});
