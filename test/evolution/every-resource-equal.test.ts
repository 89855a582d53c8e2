import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createProxy } from '../../src/proxy/create-proxy.js';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { mockOptions, type DocumentUnderTest } from '../support/behaviour-subject.js';
import { kitCollection, kitScenario, kitScenarios } from '../support/kit-scenarios.js';
import { auth, inProcessMock, jsonAuth, request, startServer, type RunningServer } from '../support/start-server.js';
import { documentsUnderTest } from './support/documents-under-test.js';

// What issue 37 asks of a document that grows (items 1 to 3): every resource equal, references between them, and a
// rename that cannot lose data, each in the words.

function documentNamed(name: string): DocumentUnderTest {
  const found = documentsUnderTest.find((document) => document.name === name);
  if (!found) throw new Error(`no document under test is named ${name}`);
  return found;
}

const withCategories = documentNamed('with-categories');
const pets = withCategories.facts.resource(kitCollection);
const categories = withCategories.facts.resource('categories');
/** `category` → `categories`, `owner` → `owners`: the plural json-server's convention names a collection by. */
const plural = (word: string) => (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);
/** The field of an animal that refers to another resource, by that convention (`categoryId` → `categories`). */
const reference = pets.writable.find(
  (field) =>
    field.name.endsWith('Id') && withCategories.facts.resources.some((r) => r.name === plural(field.name.slice(0, -2))),
);

const started: RunningServer[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('a document with a second resource, /categories, that an animal’s categoryId refers to', () => {
  it('reads categoryId as a writable integer of the animals, and categories as a resource of their own', () => {
    expect(reference).toMatchObject({ name: 'categoryId', type: 'integer', format: 'int64' });
    expect(categories).toMatchObject({ collectionPath: '/categories', idParameter: 'categoryId', idField: 'id' });
    expect([categories.list?.operationId, categories.create?.operationId, categories.read?.operationId]).toEqual([
      'listCategories',
      'createCategory',
      'getCategory',
    ]);
    expect([pets.update?.operationId, pets.delete?.operationId]).toEqual(['updatePet', 'deletePet']);
  });

  it('generates data for every resource: the default scenario holds categories', async () => {
    const mock = inProcessMock(mockOptions(withCategories, {}));
    const listed = await request<unknown[]>(`${mock.baseUrl}${categories.collectionPath}`, { headers: auth });
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThan(0);
  });

  it('makes generated animals refer to existing categories: every categoryId of the default scenario names one', async () => {
    const mock = inProcessMock(mockOptions(withCategories, {}));
    const listed = await request<Array<Record<string, unknown>>>(`${mock.baseUrl}${pets.collectionPath}`, {
      headers: auth,
    });
    const referred = [...new Set(listed.body.map((pet) => pet[reference?.name ?? 'categoryId']))];
    expect(referred.length).toBeGreaterThan(0);
    for (const id of referred) {
      const category = await request(`${mock.baseUrl}${categories.itemPath(String(id))}`, { headers: auth });
      expect(category.status, `category ${String(id)}`).toBe(200);
    }
  });

  it('answers a create naming a missing category 400 with an Error body naming the field', async () => {
    const mock = inProcessMock(mockOptions(withCategories, { scenario: 'empty' }));
    const created = await request<{ code: string; message: string; status: number }>(
      `${mock.baseUrl}${pets.collectionPath}`,
      { method: 'POST', headers: jsonAuth, body: JSON.stringify(pets.newItem({ categoryId: 999 })) },
    );
    expect(created.status).toBe(400);
    expect(created.body.message).toContain("'categoryId'");
  });

  it('accepts a create naming a category that exists', async () => {
    const mock = inProcessMock(mockOptions(withCategories, { scenario: 'empty' }));
    const category = await request<{ id: number }>(`${mock.baseUrl}${categories.collectionPath}`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify(categories.newItem({ name: 'Dogs' })),
    });
    expect(category.status).toBe(201);
    const created = await request(`${mock.baseUrl}${pets.collectionPath}`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify(pets.newItem({ categoryId: category.body.id })),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ categoryId: category.body.id });
  });

  it('shows each resource in the admin store: ?resource=categories', async () => {
    const mock = inProcessMock(mockOptions(withCategories, { scenario: 'empty' }));
    await request(`${mock.baseUrl}${categories.collectionPath}`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify(categories.newItem({ name: 'Dogs' })),
    });
    const view = await request<{ size: number; items: unknown[] }>(
      `${mock.origin}/__admin/store?resource=${categories.name}`,
      { headers: auth },
    );
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ size: 1, items: [{ id: 1, name: 'Dogs' }] });
  });

  describe('the proxy in front of a deployment that answers another category than the one asked for', () => {
    const judged = async () => {
      const upstream = await startServer((incoming, outgoing) => {
        incoming.resume();
        incoming.on('end', () => {
          outgoing.setHeader('content-type', 'application/json');
          outgoing.end(JSON.stringify({ id: 8, name: 'Cats' }));
        });
      });
      started.push(upstream);
      const proxy = createProxy({ upstream: upstream.baseUrl, document: withCategories.path, settleMs: 0 });
      const server = await startServer(proxy.listener);
      started.push(server);
      const answer = await request(`${server.baseUrl}${categories.itemPath(7)}`, {
        headers: { Authorization: 'Bearer dev-key' },
      });
      expect(answer.status).toBe(200);
      return proxy.report.toJson().deployment.findings.filter((found) => found.level === 'fail');
    };

    it('fails it, naming the category asked for and the one answered', async () => {
      const findings = await judged();
      expect(findings).toHaveLength(1);
      expect(findings[0]?.message).toContain(`${categories.read?.operationId} 7 answered the item whose id is 8`);
    });

    it('names the rule by kind and resource, with no "pet" in a category’s rule id', async () => {
      const [finding] = await judged();
      expect(finding?.rule).toBeTypeOf('string');
      expect(finding?.rule).not.toMatch(/pet/i);
    });
  });
});

describe('a document with /pets renamed /animals, and petId renamed id', () => {
  const renamed = documentNamed('renamed-to-animals');
  const animals = renamed.facts.resource('animals');

  it('reads the renamed collection, its item path parameter and the not-found code from the document', () => {
    expect(renamed.facts.resources.map((resource) => resource.name)).toEqual(['animals']);
    expect(animals).toMatchObject({ collectionPath: '/animals', idParameter: 'id', itemName: 'animal' });
    expect(animals.notFound(42)).toEqual({ code: 'animal_not_found', message: 'no animal has id 42', status: 404 });
  });

  it('serves every built-in scenario as animals, or refuses it with a clear error naming the scenario', () => {
    for (const scenario of kitScenarios.values()) {
      let mock: ReturnType<typeof createNodeMock> | undefined;
      let refusal: Error | undefined;
      try {
        mock = createNodeMock({ document: renamed.path, scenario: scenario.name, keys: ['test-key'] });
      } catch (error) {
        refusal = error as Error;
      }
      if (mock) {
        expect(mock.store.collection(animals.name).size, scenario.name).toBe(
          scenario.generate ? (scenario.generate.count ?? 50) : kitScenario(scenario.name).items.length,
        );
      } else {
        expect(refusal?.message, scenario.name).toContain(scenario.name);
        expect(refusal?.message, scenario.name).toContain(kitCollection);
      }
    }
  });

  it('starts the CLI with --document and serves its default scenario’s animals', async () => {
    const cli = startCli(['--port', '0', '--document', renamed.path, '--log-level', 'warn']);
    const base = await waitForBanner(cli);
    const listed = await request<unknown[]>(`${base}${animals.collectionPath}`, {
      headers: { Authorization: 'Bearer dev-key' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(animals.page?.default ?? 20);
  });

  it('refuses a built-in scenario of pets at start-up, naming the scenario, the mismatch and the way out', async () => {
    const cli = startCli(['--port', '0', '--document', renamed.path, '--scenario', 'one-of-each-status']);
    expect(await cli.exited).toBe(1);
    const said = cli.stderr();
    expect(said).toContain(`scenario 'one-of-each-status'`);
    expect(said).toContain(`gives items of '${kitCollection}', which is no collection of`);
    expect(said).toContain(`--fixture-collection ${kitCollection}=${animals.name}`);
  });

  it('serves a built-in scenario of pets as animals with --fixture-collection pets=animals', async () => {
    const cli = startCli([
      '--port',
      '0',
      '--document',
      renamed.path,
      '--scenario',
      'one-of-each-status',
      '--fixture-collection',
      `${kitCollection}=${animals.name}`,
      '--log-level',
      'warn',
    ]);
    const base = await waitForBanner(cli);
    const listed = await request<Array<Record<string, unknown>>>(`${base}${animals.collectionPath}`, {
      headers: { Authorization: 'Bearer dev-key' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(kitScenario('one-of-each-status').items);
  });
});
