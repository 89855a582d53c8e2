import { describe, expect, it } from 'vitest';
import { createMock } from '../src/create-mock.js';
import { defaultDocument } from '../src/generated/default-document.js';
import { defaultScenarioItems } from '../src/generated/default-scenario-items.js';
import { generateItems } from '../src/core/seed/generate-items.js';
import { fetchJson } from './support/fetch-json.js';
import { petsIn } from './support/kit-model.js';

const devKey = { Authorization: 'Bearer dev-key' };

describe('createMock (universal: objects only, no file system, Faker loaded on demand)', () => {
  it('serves the embedded openapi.yaml and scenarios with every default: key dev-key, 50 generated pets', async () => {
    const mock = createMock();
    await mock.ready;
    const response = await fetchJson<unknown[]>(mock, '/v1/pets?limit=100', { headers: devKey });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(50);
    expect(mock.compiled.document).toBe(defaultDocument);
    expect(mock.scenarios().map((info) => [info.name, info.source])).toEqual([
      ['default', 'fixtures/default.yaml'],
      ['edge-cases', 'fixtures/edge-cases.yaml'],
      ['empty', 'fixtures/empty.yaml'],
      ['large', 'fixtures/large.yaml'],
      ['one-of-each-status', 'fixtures/one-of-each-status.yaml'],
    ]);
  });

  it('answers a request sent before Faker has loaded, once it has', async () => {
    const mock = createMock({ pets: 4 });
    const response = await fetchJson<unknown[]>(mock, '/v1/pets', { headers: devKey });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(4);
  });

  it('serves the same pets for the same seed as the mock for Node does', async () => {
    const { createMock: createNodeMock } = await import('../src/index.js');
    const universal = createMock({ seed: 5, pets: 10 });
    const node = createNodeMock({ seed: 5, pets: 10 });
    const [a, b] = await Promise.all([
      fetchJson(universal, '/v1/pets', { headers: devKey }),
      fetchJson(node, '/v1/pets', { headers: devKey }),
    ]);
    expect(a.text).toBe(b.text);
  });

  it("adds scenarios given as objects beside the kit's, naming them in messages as fixtures", async () => {
    const mock = createMock({
      fixtures: { shop: { description: 'my shop', pets: [{ id: 7, name: 'Seven', categoryId: 1 }] } },
      scenario: 'shop',
    });
    expect(mock.scenarios().find((info) => info.name === 'shop')).toEqual({
      name: 'shop',
      description: 'my shop',
      source: "fixture 'shop'",
    });
    expect((await fetchJson(mock, '/v1/pets', { headers: devKey })).text).toBe(
      '[{"id":7,"name":"Seven","categoryId":1}]',
    );
    expect(() => createMock({ fixtures: { bad: { description: 'x', pets: [{ id: 1 }] } } })).toThrow(
      "fixture 'bad': field 'pets[0].name' is required",
    );
  });

  it("replaces one of the kit's scenarios given under its name", async () => {
    const mock = createMock({
      fixtures: { empty: { description: 'not empty', pets: [{ id: 1, name: 'A', categoryId: 1 }] } },
    });
    expect(mock.scenarios().find((info) => info.name === 'empty')).toMatchObject({
      description: 'not empty',
      source: "fixture 'empty'",
    });
  });

  it('names a document given as an object "document" in its messages', () => {
    const broken = structuredClone(defaultDocument);
    (broken.components?.schemas?.NewPet as { type: string }).type = 'objekt';
    expect(() => createMock({ document: broken })).toThrow(/^document: /);
  });
});

describe('a second createMock() in the same process', () => {
  const admin = (mock: ReturnType<typeof createMock>, path: string, init: RequestInit = {}) =>
    fetchJson(mock, `/__admin${path}`, {
      ...init,
      headers: { ...devKey, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    });

  it('reuses what the document compiled to, and the admin API’s', async () => {
    const first = createMock();
    const second = createMock();
    expect(second.compiled).toBe(first.compiled);
    await admin(first, '/health');
    await admin(second, '/health');
    expect((await admin(second, '/scenarios')).status).toBe(200);
  });

  it('shares nothing a mock changes: store, scenario, journal, faults, latency, sessions', async () => {
    const first = createMock();
    const second = createMock();
    await fetchJson(first, '/v1/pets', {
      method: 'POST',
      headers: { ...devKey, 'Content-Type': 'application/json' },
      body: '{"name":"Only in the first","categoryId":1}',
    });
    await admin(first, '/faults', { method: 'POST', body: '{"status":503}' });
    await admin(first, '/latency', { method: 'PUT', body: '{"min":5,"max":5}' });
    await first.session('worker').switchScenario('empty');
    await first.switchScenario('large');
    expect(second.scenario).toBe('default');
    expect(petsIn(second.store).size).toBe(50);
    expect(second.journal.size).toBe(0);
    expect((await admin(second, '/faults')).body).toEqual({ faults: [] });
    expect((await admin(second, '/latency')).body).toEqual({ min: 0, max: 0 });
    expect((await admin(second, '/sessions')).body).toMatchObject({ sessions: [{ name: 'default' }] });
    expect(second.store).not.toBe(first.store);
    expect(second.session('worker').scenario).toBe('default');
  });

  it('compiles a document object again once it has changed, rather than serve the old one', async () => {
    const document = structuredClone(defaultDocument);
    const before = createMock({ document });
    (document.info as { title: string }).title = 'Changed';
    const after = createMock({ document });
    expect(after.compiled).not.toBe(before.compiled);
    expect(((await fetchJson(after, '/openapi.json')).body as { info: { title: string } }).info.title).toBe('Changed');
  });

  it('starts the default scenario from the pets made at build time, the ones Faker makes for those options', () => {
    const [pets, ...others] = defaultScenarioItems;
    expect(others).toEqual([]);
    expect(pets?.options).toMatchObject({ collection: 'pets', count: 50, seed: 1, firstId: 1 });
    const made = generateItems(pets!.options);
    expect(made).toEqual(pets?.items);
    expect(petsIn(createMock().store).all()).toEqual(made);
  });
});

describe('mock.reset()', () => {
  it('goes back to the options the mock was created with: scenario, pets, latency, no faults, empty journal', async () => {
    const mock = createMock({ scenario: 'one-of-each-status', latency: { min: 1, max: 2 } });
    await mock.switchScenario('large');
    await fetchJson(mock, '/__admin/latency', {
      method: 'PUT',
      headers: { ...devKey, 'Content-Type': 'application/json' },
      body: '{"min":0,"max":0}',
    });
    await fetchJson(mock, '/__admin/faults', {
      method: 'POST',
      headers: { ...devKey, 'Content-Type': 'application/json' },
      body: '{"operationId":"getPet","status":500}',
    });
    expect(mock.reset()).toEqual({ scenario: 'one-of-each-status', pets: 3 });
    expect(mock.journal.size).toBe(0);
    expect((await fetchJson(mock, '/__admin/latency', { headers: devKey })).body).toEqual({ min: 1, max: 2 });
    expect((await fetchJson(mock, '/v1/pets/1', { headers: devKey })).status).toBe(200);
  });
});
