import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testsFor, type StartOptions, type Subject, type Target } from '../../support/behaviour-subject.js';
import { kitScenarios } from '../../support/kit-scenarios.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;

/** The admin API under /__admin: scenarios, reset, journal; its answers name each resource of the document. */
export function adminApiSuite(subject: Subject): void {
  const r = subject.resource;
  const resourceNames = subject.facts.resources.map((resource) => resource.name);
  const start = subject.scenario('one-of-each-status');
  const large = subject.scenario('large');
  const everything = r.page ? `?${r.page.name}=${r.page.maximum}` : '';
  /** Another operation of the document than the list, for a fault that must not hit the list. */
  const someOperation = (r.read ?? r.create ?? r.list)?.operationId as string;

  describe('the admin API under /__admin', () => {
    let target: Target;
    let admin: string;
    const startWith = async (options: StartOptions = {}) => {
      target = await subject.start({ scenario: 'one-of-each-status', ...options });
      admin = `${target.origin}/__admin`;
    };
    beforeEach(() => startWith());
    afterEach(() => target.close());

    const switchTo = (name: unknown) =>
      request<Record<string, unknown>>(`${admin}/scenario`, {
        method: 'POST',
        headers: jsonAuth,
        body: JSON.stringify({ name }),
      });
    const listed = async (query = everything) =>
      (await request<Item[]>(`${target.baseUrl}${r.collectionPath}${query}`, { headers: auth })).body;
    const create = () =>
      request<Item>(`${target.baseUrl}${r.collectionPath}`, {
        method: 'POST',
        headers: jsonAuth,
        body: JSON.stringify(r.newItem()),
      });
    /** A scenario's answer: its name, and how many items it holds of each resource (this one's as expected). */
    const expectState = (body: Record<string, unknown>, scenario: string, size: number) => {
      expect(Object.keys(body).sort()).toEqual(['scenario', ...resourceNames].sort());
      expect(body).toMatchObject({ scenario, [r.name]: size });
    };

    it('lists the shipped scenarios and the current one', async () => {
      const response = await request<{ current: string; scenarios: Array<{ name: string; description: string }> }>(
        `${admin}/scenarios`,
        { headers: auth },
      );
      expect(response.status).toBe(200);
      expect(response.body.current).toBe('one-of-each-status');
      expect(response.body.scenarios.map((s) => s.name).sort()).toEqual([...kitScenarios.keys()].sort());
      expect(response.body.scenarios.every((s) => s.description.length > 0)).toBe(true);
    });

    it('switches the store to another scenario', async () => {
      const switched = await switchTo('large');
      expect(switched.status).toBe(200);
      expectState(switched.body, 'large', large.size);
      expect(await listed()).toHaveLength(Math.min(large.size, r.page?.maximum ?? large.size));
    });

    it('answers 404 scenario_not_found for an unknown scenario and keeps the store as it was', async () => {
      const response = await switchTo('nope');
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'scenario_not_found', status: 404 });
      expect(await listed()).toEqual(start.items);
    });

    it(`answers 507 store_full, not 500, when a scenario holds more ${r.name} than --max-pets, and keeps the store`, async () => {
      await target.close();
      await startWith({ maxPets: large.size - 1 });
      const response = await switchTo('large');
      expect(response.status).toBe(507);
      expect(response.body).toMatchObject({ code: 'store_full', status: 507 });
      expect(String(response.body.message)).toContain('--max-pets');
      expect(await listed()).toEqual(start.items);
    });

    it('answers 400 invalid_prefer, not 500, to a Prefer code on an admin operation without examples', async () => {
      const response = await request<{ code: string }>(`${admin}/reset`, {
        method: 'POST',
        headers: { ...auth, Prefer: 'code=200' },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_prefer');
    });

    it.each([[''], [5], [null]])('answers 400 for a scenario name of %j', async (name) => {
      const response = await switchTo(name);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400 });
    });

    it(`resets the store to the initial ${r.name} of the current scenario`, async () => {
      expect((await create()).status).toBe(201);
      expect(await listed()).toHaveLength(start.size + 1);
      const reset = await request<Record<string, unknown>>(`${admin}/reset`, { method: 'POST', headers: auth });
      expectState(reset.body, 'one-of-each-status', start.size);
      expect(await listed()).toEqual(start.items);
      expect((await create()).body[r.idField]).toBe(start.nextId);
    });

    it(`resets the whole session to its start: scenario, ${r.name}, faults (used or not), latency, journal`, async () => {
      await switchTo('large');
      await create();
      const send = (path: string, method: string, body: unknown) =>
        request(`${admin}${path}`, { method, headers: jsonAuth, body: JSON.stringify(body) });
      await send('/faults', 'POST', { operationId: someOperation, status: 503 });
      await send('/faults', 'POST', { fault: 'timeout', probability: 0.5 });
      await send('/latency', 'PUT', { min: 40, max: 40 });
      const reset = await request<Record<string, unknown>>(`${admin}/reset`, { method: 'POST', headers: auth });
      expectState(reset.body, 'one-of-each-status', start.size);
      expect((await request<{ current: string }>(`${admin}/scenarios`, { headers: auth })).body.current).toBe(
        'one-of-each-status',
      );
      expect((await request(`${admin}/faults`, { headers: auth })).body).toEqual({ faults: [] });
      expect((await request(`${admin}/latency`, { headers: auth })).body).toEqual({ min: 0, max: 0 });
      // The reset is not itself kept: the journal reads empty.
      expect((await request(`${admin}/requests`, { headers: auth })).body).toMatchObject({
        dropped: 0,
        requests: [],
      });
      // As in a new session: the next fault is number 1 again, and the next item gets the scenario's next id.
      expect((await send('/faults', 'POST', { status: 500 })).body).toMatchObject({ id: 1 });
      await request(`${admin}/faults`, { method: 'DELETE', headers: auth });
      expect((await create()).body[r.idField]).toBe(start.nextId);
    });

    it('resets only the session the request names', async () => {
      const named = { ...jsonAuth, 'Petstore-Session': 'worker-1' };
      await request(`${admin}/latency`, { method: 'PUT', headers: named, body: '{"min":30,"max":30}' });
      await request(`${admin}/latency`, { method: 'PUT', headers: jsonAuth, body: '{"min":20,"max":20}' });
      await request(`${admin}/reset`, { method: 'POST', headers: { ...auth, 'Petstore-Session': 'worker-1' } });
      expect((await request(`${admin}/latency`, { headers: named })).body).toEqual({ min: 0, max: 0 });
      expect((await request(`${admin}/latency`, { headers: auth })).body).toEqual({ min: 20, max: 20 });
    });

    it('journals API requests with the Authorization header redacted, and clears the journal', async () => {
      const page = r.page ? `?${r.page.name}=2` : '';
      await request(`${target.baseUrl}${r.collectionPath}${page}`, { headers: auth });
      await create();
      const journal = await request<{
        requests: Array<{
          method: string;
          url: string;
          status: number;
          headers: Record<string, string>;
          body?: string;
        }>;
      }>(`${admin}/requests`, { headers: auth });
      expect(journal.status).toBe(200);
      expect(journal.body.requests.map((entry) => [entry.method, entry.url, entry.status])).toEqual([
        ['GET', `/v1${r.collectionPath}${page}`, 200],
        ['POST', `/v1${r.collectionPath}`, 201],
      ]);
      expect(journal.body.requests[0]?.headers.authorization).toBe('Bearer [redacted]');
      expect(journal.body.requests[1]?.body).toBe(JSON.stringify(r.newItem()));
      expect(journal.text).not.toContain('test-key');
      const cleared = await request(`${admin}/requests`, { method: 'DELETE', headers: auth });
      expect(cleared.body).toEqual({ cleared: 2 });
      const empty = await request<{ requests: unknown[] }>(`${admin}/requests`, { headers: auth });
      expect(empty.body.requests).toEqual([]);
    });

    it('journals each response’s body, and admin changes marked as such (but not its own reads)', async () => {
      const first = start.items[0] as Item;
      // One item's read where the document has one; else the list's first page.
      const read = r.read
        ? r.itemPath(String(first[r.idField]))
        : `${r.collectionPath}${r.page ? `?${r.page.name}=1` : ''}`;
      const shown = r.read ? first : [first];
      await request(`${admin}/requests`, { method: 'DELETE', headers: auth });
      await request(`${target.baseUrl}${read}`, { headers: auth });
      await switchTo('one-of-each-status');
      await request(`${admin}/scenarios`, { headers: auth });
      const journal = await request<{
        requests: Array<{ method: string; url: string; status: number; responseBody?: string; admin?: boolean }>;
      }>(`${admin}/requests`, { headers: auth });
      expect(
        journal.body.requests.map((entry) => [entry.method, entry.url, entry.status, entry.admin ?? false]),
      ).toEqual([
        ['GET', `/v1${read}`, 200, false],
        ['POST', '/__admin/scenario', 200, true],
      ]);
      expect(JSON.parse(journal.body.requests[0]?.responseBody ?? '{}')).toEqual(shown);
      expectState(JSON.parse(journal.body.requests[1]?.responseBody ?? '{}'), 'one-of-each-status', start.size);
    });

    testsFor(subject, { journalSize: 3 })('keeps the journal bounded, dropping the oldest requests', async () => {
      await target.close();
      await startWith({ journalSize: 3 });
      const query = (n: number) => (r.page ? `?${r.page.name}=${n}` : `?n=${n}`);
      for (let n = 1; n <= 5; n++) await request(`${target.baseUrl}${r.collectionPath}${query(n)}`, { headers: auth });
      const journal = await request<{ capacity: number; dropped: number; requests: Array<{ url: string }> }>(
        `${admin}/requests`,
        { headers: auth },
      );
      expect(journal.body.capacity).toBe(3);
      expect(journal.body.dropped).toBe(2);
      expect(journal.body.requests.map((entry) => entry.url)).toEqual(
        [3, 4, 5].map((n) => `/v1${r.collectionPath}${query(n)}`),
      );
    });

    it.each([
      ['GET', '/scenarios'],
      ['POST', '/reset'],
      ['GET', '/requests'],
      ['DELETE', '/requests'],
    ])('requires a key for %s %s', async (method, path) => {
      const response = await request(`${admin}${path}`, { method });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
    });

    it('answers 405 with Allow for a wrong method on an admin path', async () => {
      const response = await request(`${admin}/reset`, { headers: auth });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });
  });
}
