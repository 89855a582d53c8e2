import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FixtureError } from '../../src/core/scenarios/fixture.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { auth, request, inProcessMock } from '../support/start-server.js';

async function firstHundred(options: Parameters<typeof inProcessMock>[0]): Promise<string> {
  const mock = await inProcessMock(options);
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
    const mock = await inProcessMock({ scenario: file });
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
    expect(() => createNodeMock({ scenario: file })).toThrow(FixtureError);
    expect(() => createNodeMock({ scenario: file })).toThrow(/broken\.yaml.*'pets\[0\]\.status'/);
  });

  it('adds the requested latency before answering', async () => {
    const mock = inProcessMock({ latency: { min: 150, max: 150 } });
    const started = performance.now();
    await request(`${mock.baseUrl}/pets`, { headers: auth });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});
