import { describe, expect, it } from 'vitest';
import { createMock } from '../src/create-mock.js';
import { defaultDocument } from '../src/generated/default-document.js';
import { fetchJson } from './support/fetch-json.js';

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
    delete broken.paths['/pets'];
    expect(() => createMock({ document: broken })).toThrow(/^document: /);
  });
});
