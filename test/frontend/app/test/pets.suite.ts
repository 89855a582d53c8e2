// A frontend team's suite, as docs/in-process.md tells them to write it: MSW's setupServer with the kit's handlers,
// an openapi-fetch client typed by the kit's `paths`, a small component, one reset before each test, and one test's
// own 500 both ways (server.use and the mock's typed fault). test/project/app-suite-msw-*.test.ts runs it from the packed
// tarball on MSW 2 (Node 20) and MSW 3 (Node 24), under vitest's node, jsdom and happy-dom environments (a project
// each in vitest.config.ts), shuffled.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createMockHandlers, type ErrorBody } from 'petstore-kit/msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPetClient } from '../src/pet-client.js';
import { mountPetList, type PetList } from '../src/pet-list.js';
// The one line that differs between MSW 2 and 3 (msw-2/listen.ts or msw-3/listen.ts, copied here for the msw installed).
import { listen } from './listen.js';

// The app's API is on an origin of its own, not the page's (jsdom's and happy-dom's is http://localhost:3000):
// the handlers' default base, `/v1`, is any origin's outside a real browser.
const api = 'https://api.example.test/v1';
const handlers = createMockHandlers({ scenario: 'one-of-each-status' });
const server = setupServer(...handlers);
const client = createPetClient(api, 'dev-key');

beforeAll(async () => {
  listen(server);
  await handlers.mock.ready;
});
// The documented reset: the mock back to its start, and MSW without this test's own handlers.
beforeEach(() => {
  if (process.env.SKIP_RESET !== '1') handlers.mock.reset();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The page the component renders into: the environment's, or in `node`, which has none, a happy-dom window's. */
let page: Document;
let closePage = async (): Promise<void> => undefined;
beforeAll(async () => {
  if (typeof document !== 'undefined') {
    page = document;
    return;
  }
  // A name in a variable: the node environment's page is the one place the suite loads happy-dom itself.
  const dom = 'happy-dom';
  const { Window } = (await import(dom)) as {
    Window: new (options: { url: string }) => { document: Document; happyDOM: { close(): Promise<void> } };
  };
  const window = new Window({ url: 'http://localhost:3000' });
  page = window.document;
  closePage = () => window.happyDOM.close();
});
afterAll(() => closePage());

/** The component, freshly mounted into the page's body. */
async function mounted(): Promise<{ view: PetList; items: () => string[]; alert: () => string }> {
  const root = page.createElement('div');
  page.body.replaceChildren(root);
  const view = mountPetList(root, client);
  await view.refresh();
  return {
    view,
    items: () => [...root.querySelectorAll('li')].map((item) => item.textContent ?? ''),
    alert: () => root.querySelector('[role="alert"]')?.textContent ?? '',
  };
}

describe('the pets app against the mock', () => {
  it('runs in the environment its project is named after', ({ task }) => {
    const agent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
    const environment =
      typeof document === 'undefined'
        ? 'node'
        : /HappyDOM/.test(agent)
          ? 'happy-dom'
          : /jsdom/.test(agent)
            ? 'jsdom'
            : agent;
    expect(environment).toBe(task.file.projectName);
  });

  it('lists the scenario’s pets through the typed client', async () => {
    const { data, error, response } = await client.GET('/pets', { params: { query: { status: 'sold' } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.map((pet) => pet.name)).toEqual(['Luna']);
  });

  it('creates a pet with the id after the scenario’s highest, sending the key and Content-Type as set', async () => {
    const { data, response } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: 4, name: 'Rex', categoryId: 1 });
    expect(handlers.mock.store.collection('pets').size).toBe(4);
  });

  it('answers 401 with an Error body without the key', async () => {
    const anonymous = await fetch(`${api}/pets`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()) as ErrorBody).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('shows the pets in the component', async () => {
    const { items, alert } = await mounted();
    expect(items()).toEqual(['1 Bella (available)', '2 Max (pending)', '3 Luna (sold)']);
    expect(alert()).toBe('');
  });

  it('adds a pet from the component’s form, and lists it', async () => {
    const { items } = await mounted();
    const form = page.querySelector('form') as HTMLFormElement;
    (form.elements.namedItem('name') as HTMLInputElement).value = 'Bolt';
    (form.elements.namedItem('categoryId') as HTMLInputElement).value = '2';
    form.requestSubmit();
    await vi.waitFor(() => expect(items()).toContain('4 Bolt'));
    expect(items()).toHaveLength(4);
  });

  it('shows the error of a 500 that only this test gets: server.use', async () => {
    server.use(
      http.get(`${api}/pets`, () =>
        HttpResponse.json<ErrorBody>(
          { code: 'internal_error', message: 'the list broke', status: 500 },
          { status: 500 },
        ),
      ),
    );
    const { items, alert } = await mounted();
    expect(alert()).toBe('Could not list the pets: the list broke');
    expect(items()).toEqual([]);
  });

  it('shows the error of a 500 that only this test gets: the mock’s typed fault', async () => {
    handlers.mock.scheduleFault({ operationId: 'listPets', status: 500 });
    const { alert } = await mounted();
    expect(alert()).toMatch(/^Could not list the pets: /);
    // The fault was used up; the next list answers.
    expect((await client.GET('/pets')).response.status).toBe(200);
  });

  it('shows an empty list for a scenario switched to in this test only', async () => {
    await handlers.mock.switchScenario('empty');
    const { items } = await mounted();
    expect(items()).toEqual([]);
  });

  it('starts from the scenario, whatever ran before: three pets, no fault, no latency, an empty journal', async () => {
    expect(handlers.mock.faults()).toEqual([]);
    expect(handlers.mock.journal.size).toBe(0);
    expect(handlers.mock.scenario).toBe('one-of-each-status');
    const { data } = await client.GET('/pets');
    expect(data).toHaveLength(3);
    expect(await latency()).toEqual({ min: 0, max: 0 });
  });

  it('sets a latency for this test only', async () => {
    handlers.mock.setLatency({ min: 20, max: 20 });
    expect(await latency()).toEqual({ min: 20, max: 20 });
    expect((await client.GET('/pets')).response.status).toBe(200);
  });
});

/** The session's latency, as the admin API beside the API tells it. */
async function latency(): Promise<unknown> {
  const response = await fetch(`${new URL(api).origin}/__admin/latency`, {
    headers: { Authorization: 'Bearer dev-key' },
  });
  return response.json();
}
