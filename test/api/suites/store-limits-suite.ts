import { afterEach, describe, expect } from 'vitest';
import { createNodeMock } from '../../../src/node/create-node-mock.js';
import {
  nothingToRun,
  mockOptions,
  testsFor,
  type StartOptions,
  type Subject,
  type Target,
} from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** What start-up throws, for a test to look at. */
function thrownBy(act: () => unknown): Error & { code?: string; status?: number } {
  try {
    act();
  } catch (error) {
    return error as Error;
  }
  throw new Error('start-up was not refused');
}

/** The store's limits: how many items (--max-pets), how many bytes per session and for the whole mock. */
export function storeLimitsSuite(subject: Subject): void {
  const r = subject.resource;
  const text = r.text?.name;
  if (!r.create || !r.list || text === undefined) {
    return nothingToRun(`the document has no list and create of ${r.name} with a text to fill`);
  }
  const start = subject.scenario('one-of-each-status');
  const large = subject.scenario('large');
  // The limits count every collection of a scenario: each test reads what the scenarios hold.
  const it = testsFor(subject, {});
  const startup = testsFor(subject, { mock: true });
  const everything = r.page ? `?${r.page.name}=${r.page.maximum}` : '';
  const kept = 'nothing was changed and nothing is evicted';
  // The limits hold the whole store: a count each collection, bytes every collection's together.
  const names = subject.facts.resources.map((each) => each.name);
  const every = names.length === 1 ? r.name : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  /** The bytes of every item the store holds at the start, as JSON (read through the admin API). */
  const heldBytes = async (running: Target) => {
    let bytes = 0;
    for (const name of names) {
      const view = await request<{ items: Item[] }>(`${running.origin}/__admin/store?resource=${name}&limit=1000`, {
        headers: auth,
      });
      for (const item of view.body.items) bytes += Buffer.byteLength(JSON.stringify(item));
    }
    return bytes;
  };

  let target: Target | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });
  const startWith = async (options: StartOptions) => {
    target = await subject.start(options);
    return target;
  };
  const create = (name: string, session?: string) =>
    request<ErrorBody & Item>(`${target?.baseUrl}${r.collectionPath}`, {
      method: 'POST',
      headers: session ? { ...jsonAuth, 'Petstore-Session': session } : jsonAuth,
      body: JSON.stringify(r.newItem({ [text]: name })),
    });
  const listed = async (session?: string) =>
    (
      await request<Item[]>(`${target?.baseUrl}${r.collectionPath}${everything}`, {
        headers: session ? { ...auth, 'Petstore-Session': session } : auth,
      })
    ).body;

  describe('the store size limit (maxPets)', () => {
    it(`answers 507 store_full with an Error body once the store holds maxPets ${r.name}, and stores nothing`, async () => {
      const max = start.size + 1;
      await startWith({ scenario: 'one-of-each-status', maxPets: max });
      expect((await create('fourth')).status).toBe(201);
      const refused = await create('fifth');
      expect(refused.status).toBe(507);
      expect(refused.headers.get('content-type')).toBe('application/json');
      expect(refused.body).toEqual({
        code: 'store_full',
        message: `a new ${r.itemName} would make the store hold ${max + 1} ${r.name}, more than its maximum of ${max} (--max-pets); ${kept} (a reset takes the store back to its scenario)`,
        status: 507,
      });
      expect((await listed()).map((item) => item[text])).toEqual([...start.items.map((item) => item[text]), 'fourth']);
    });

    it('accepts creates again after an admin reset', async () => {
      const running = await startWith({ scenario: 'one-of-each-status', maxPets: start.size + 1 });
      await create('fourth');
      expect((await create('fifth')).status).toBe(507);
      await request(`${running.origin}/__admin/reset`, { method: 'POST', headers: auth });
      expect((await create('again')).status).toBe(201);
    });

    // A generated scenario makes as many items of each collection: the first of the document's is named.
    startup(`holds at most 100,000 ${r.name} by default`, () => {
      expect(() => createNodeMock(mockOptions(subject.document, { pets: 100_001 }))).toThrow(
        `scenario 'default' would make the store hold 100001 ${names[0]}, more than its maximum of 100000`,
      );
    });

    startup(`refuses to start with a scenario larger than maxPets, saying how many ${r.name} and the maximum`, () => {
      const thrown = thrownBy(() => createNodeMock(mockOptions(subject.document, { scenario: 'large', maxPets: 100 })));
      expect(thrown).toMatchObject({ code: 'store_full', status: 507 });
      expect(thrown.message).toMatch(
        new RegExp(
          `^scenario 'large' would make the store hold ${large.size} ${names[0]}, more than its maximum of 100 `,
        ),
      );
    });

    it('starts with a scenario exactly as large as maxPets', async () => {
      const running = await startWith({ scenario: 'large', maxPets: large.size });
      const view = await request<{ size: number }>(`${running.origin}/__admin/store?resource=${r.name}`, {
        headers: auth,
      });
      expect(view.body.size).toBe(large.size);
    });
  });

  describe('the store byte limits (maxStoreBytes, maxTotalStoreBytes)', () => {
    const sizeOf = (id: number, name: string) =>
      Buffer.byteLength(JSON.stringify({ [r.idField]: id, ...r.newItem({ [text]: name }) }));

    it(`answers 507 store_full naming the byte limit once a session’s ${r.name} would pass it, and stores nothing`, async () => {
      const name = 'n'.repeat(10_000);
      const one = sizeOf(start.nextId as number, name);
      // The scenario's items count too (whatever the collection): the limit leaves room for three more.
      const base = await heldBytes(await startWith({ scenario: 'one-of-each-status' }));
      await target?.close();
      const running = await startWith({ scenario: 'one-of-each-status', maxStoreBytes: base + 3 * one });
      for (let index = 0; index < 3; index++) expect((await create(name)).status).toBe(201);
      const refused = await create(name);
      expect(refused.status).toBe(507);
      expect(refused.body).toEqual({
        code: 'store_full',
        message: `a new ${r.itemName} would make the store hold ${base + 4 * one} bytes of ${every} (as JSON), more than its maximum of ${base + 3 * one} bytes (--max-store-bytes); ${kept} (a reset takes the store back to its scenario)`,
        status: 507,
      });
      expect(await listed()).toHaveLength(start.size + 3);
      // Small items still fit in what is left.
      expect((await create('x')).status).toBe(507);
      await request(`${running.origin}/__admin/reset`, { method: 'POST', headers: auth });
      expect((await create(name)).status).toBe(201);
    });

    it(`holds every session’s ${r.name} together to the mock-wide limit, and frees room when a session is dropped`, async () => {
      const name = 'n'.repeat(10_000);
      const one = sizeOf(start.nextId as number, name);
      // The scenario's items are shared, not charged: each session charges the mock with its own writes only.
      const running = await startWith({
        scenario: 'one-of-each-status',
        maxStoreBytes: 1_000_000,
        maxTotalStoreBytes: 3 * one,
      });
      expect((await create(name, 'worker-1')).status).toBe(201);
      expect((await create(name, 'worker-2')).status).toBe(201);
      expect((await create(name, 'worker-3')).status).toBe(201);
      const refused = await create(name, 'worker-4');
      expect(refused.status).toBe(507);
      expect(refused.body.code).toBe('store_full');
      expect(refused.body.message).toBe(
        `a new ${r.itemName} would make the sessions' stores hold ${4 * one} bytes of ${every} (as JSON) together, more than the mock's maximum of ${3 * one} bytes (--max-total-store-bytes); ${kept} (a reset or a dropped session frees room)`,
      );
      await request(`${running.origin}/__admin/sessions/worker-1`, { method: 'DELETE', headers: auth });
      expect((await create(name, 'worker-4')).status).toBe(201);
    });

    it('counts a session against the mock-wide limit only with what it holds beyond its scenario', async () => {
      // The large scenario's items are shared by every session, whether it reads them or writes beside them.
      const name = 'n'.repeat(1_000);
      const one = sizeOf(large.nextId as number, name);
      const running = await startWith({ scenario: 'large', maxTotalStoreBytes: 3 * one });
      for (let index = 0; index < 20; index++) expect((await listed(`r-${index}`)).length).toBeGreaterThan(0);
      // Every collection's items of the scenario, far more than the budget.
      expect(await heldBytes(running)).toBeGreaterThan(10 * one);
      // A first write keeps only the new item beside the shared scenario: three writers fit, a fourth does not.
      const statuses: number[] = [];
      for (let index = 0; index < 4; index++) statuses.push((await create(name, `w-${index}`)).status);
      expect(statuses).toEqual([201, 201, 201, 507]);
    });

    startup('refuses to start with a scenario larger than maxStoreBytes', () => {
      expect(() => createNodeMock(mockOptions(subject.document, { scenario: 'large', maxStoreBytes: 4096 }))).toThrow(
        new RegExp(
          `^scenario 'large' would make the store hold \\d+ bytes of ${every} \\(as JSON\\), more than its maximum of 4096 bytes`,
        ),
      );
    });
  });
}
