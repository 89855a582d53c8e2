import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPlainRequest } from '../../src/adapters/fetch-adapter.js';
import { foldHeaderNames } from '../../src/core/http/plain-http.js';
import { createMock } from '../../src/create-mock.js';
import { createMockHandlers } from '../../src/msw.js';
import { petsIn } from '../support/kit-model.js';

/**
 * A `Request` whose headers keep the case their names were set with, as
 * happy-dom's do (a standard `Headers` gives every name in lower case).
 */
function caseKeepingRequest(url: string, init: { method?: string; headers: Array<[string, string]>; body?: string }) {
  const standard = new Request(url, { method: init.method ?? 'GET', ...(init.body ? { body: init.body } : {}) });
  const headers = {
    forEach(each: (value: string, name: string) => void) {
      for (const [name, value] of init.headers) each(value, name);
    },
  };
  return new Proxy(standard, {
    get: (target, property) => (property === 'headers' ? headers : Reflect.get(target, property, target)),
  });
}

const json = '{"name":"Rex","categoryId":1}';

describe('header names reach the core in lower case, whatever case they were given in', () => {
  it('folds the names of a Fetch request whose Headers keep their case, joining names that differ only by case', () => {
    const plain = toPlainRequest(
      caseKeepingRequest('http://mock.test/v1/pets', {
        headers: [
          ['Authorization', 'Bearer dev-key'],
          ['X-Trace', 'a'],
          ['x-trace', 'b'],
        ],
      }),
    );
    expect(plain.headers).toEqual({ authorization: 'Bearer dev-key', 'x-trace': 'a, b' });
  });

  it('answers mock.fetch of such a request as it answers a standard one: the key and Content-Type are read', async () => {
    const mock = createMock({ scenario: 'one-of-each-status' });
    const headers: Array<[string, string]> = [
      ['Authorization', 'Bearer dev-key'],
      ['Content-Type', 'application/json'],
    ];
    const created = await mock.fetch(
      caseKeepingRequest('http://mock.test/v1/pets', { method: 'POST', headers, body: json }),
    );
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 4, name: 'Rex' });
    const listed = await mock.fetch(caseKeepingRequest('http://mock.test/v1/pets', { headers }));
    expect(listed.status).toBe(200);
  });

  it('answers mock.handle of a plain request built by hand with names in any case', async () => {
    const mock = createMock({ scenario: 'one-of-each-status' });
    const response = await mock.handle({
      method: 'POST',
      path: '/v1/pets',
      query: '',
      headers: { Authorization: 'Bearer dev-key', 'CONTENT-TYPE': 'application/json', 'Petstore-Session': 'by-hand' },
      body: new TextEncoder().encode(json),
    });
    expect(response.status).toBe(201);
    expect(petsIn(mock.session('by-hand').store).size).toBe(4);
    expect(petsIn(mock.store).size).toBe(3);
  });

  it('leaves names already in lower case as they are, without a copy (node:http gives them so)', () => {
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json', 'x-list': ['a', 'b'] };
    expect(foldHeaderNames(headers)).toBe(headers);
  });

  it('folds a copy otherwise, keeping every value, and drops only undefined ones', () => {
    const headers = { Accept: 'a', accept: 'b', 'Set-Thing': ['x', 'y'], Gone: undefined };
    expect(foldHeaderNames(headers)).toEqual({ accept: 'a, b', 'set-thing': ['x', 'y'] });
    expect(headers).toHaveProperty('Accept', 'a');
  });
});

describe('the MSW handlers in a DOM that runs in Node (jsdom, happy-dom: a location, and a Node process)', () => {
  const scope = globalThis as { location?: unknown };
  const handlers = (() => {
    // As vitest's jsdom and happy-dom environments give it, while the handlers are made.
    scope.location = new URL('http://localhost:3000/');
    try {
      return createMockHandlers({ scenario: 'one-of-each-status' });
    } finally {
      delete scope.location;
    }
  })();
  const explicit = createMockHandlers({ baseUrl: '*/v2' });
  const server = setupServer(...handlers, ...explicit);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers the app’s API on any origin, not only the DOM’s made-up page', async () => {
    for (const origin of ['https://api.example.test', 'http://localhost:3000']) {
      const response = await fetch(`${origin}/v1/pets`, { headers: { Authorization: 'Bearer dev-key' } });
      expect(response.status, origin).toBe(200);
    }
  });

  it('takes `*` and a path as any origin, explicitly', async () => {
    const response = await fetch('https://elsewhere.example.test/v2/pets', {
      headers: { Authorization: 'Bearer dev-key' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(20);
  });

  it.each(['*', '*/', 'https://*.example.test/v1', '/v1/*', '**/v1'])(
    'refuses the baseUrl %j, naming the forms',
    (baseUrl) => {
      expect(() => createMockHandlers({ baseUrl })).toThrow(
        baseUrl === '*' || baseUrl === '*/'
          ? "baseUrl must include the API's path"
          : "or '*' and a path for any origin",
      );
    },
  );
});
