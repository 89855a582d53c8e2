import { beforeEach, afterEach, describe, expect } from 'vitest';
import { nothingToRun, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { sendRaw } from '../../support/raw-request.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;

/** Sessions (Petstore-Session): each with its own store, ids, journal and controls, bounded in number. */
export function sessionsSuite(subject: Subject): void {
  const r = subject.resource;
  const text = r.text?.name;
  if (!r.create || !r.list || text === undefined) {
    return nothingToRun(`the document has no list and create of ${r.name} with a text to tell them apart`);
  }
  const start = subject.scenario('one-of-each-status');
  /** The scenario's items, by their text (their names). */
  const scenarioNames = start.items.map((item) => item[text]);
  const everything = r.page ? `?${r.page.name}=${r.page.maximum}` : '';

  // Every test reads what the scenario holds of the resource.
  const it = testsFor(subject, {});

  describe('sessions (Petstore-Session)', () => {
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ scenario: 'one-of-each-status', maxSessions: 3 });
    });
    afterEach(() => target.close());
    const as = (session: string | undefined, headers: Record<string, string> = auth) =>
      session === undefined ? headers : { ...headers, 'Petstore-Session': session };
    const create = (session: string | undefined, name: string) =>
      request<Item>(`${target.baseUrl}${r.collectionPath}`, {
        method: 'POST',
        headers: as(session, jsonAuth),
        body: JSON.stringify(r.newItem({ [text]: name })),
      });
    const names = async (session: string | undefined) =>
      (await request<Item[]>(`${target.baseUrl}${r.collectionPath}${everything}`, { headers: as(session) })).body.map(
        (item) => item[text],
      );
    const admin = (path: string, session?: string, init: RequestInit = {}) =>
      request<Record<string, unknown>>(`${target.origin}/__admin/${path}`, { ...init, headers: as(session, jsonAuth) });

    it('keeps what one session creates out of every other session, the default one included', async () => {
      await create('alice', 'Only Alice');
      await create('bob', 'Only Bob');
      await create(undefined, 'Only default');
      expect(await names('alice')).toEqual([...scenarioNames, 'Only Alice']);
      expect(await names('bob')).toEqual([...scenarioNames, 'Only Bob']);
      expect(await names(undefined)).toEqual([...scenarioNames, 'Only default']);
      expect(await names('carol')).toEqual(scenarioNames);
    });

    it(`gives each session its own ${r.idField}s, counting from the scenario`, async () => {
      const next = start.nextId as number;
      expect((await create('alice', 'A')).body[r.idField]).toBe(next);
      expect((await create('bob', 'B')).body[r.idField]).toBe(next);
      expect((await create('alice', 'A2')).body[r.idField]).toBe(next + 1);
    });

    it('switches, resets and journals one session only', async () => {
      const switched = await admin('scenario', 'alice', { method: 'POST', body: '{"name":"empty"}' });
      expect(switched.body).toMatchObject({ scenario: 'empty', [r.name]: 0 });
      expect(await names('alice')).toEqual([]);
      expect(await names(undefined)).toEqual(scenarioNames);
      await create('bob', 'Bob’s');
      await admin('reset', 'bob', { method: 'POST' });
      expect(await names('bob')).toEqual(scenarioNames);
      const journal = (await admin('requests', 'alice')).body as { requests: Array<{ url: string }> };
      expect(journal.requests.map((entry) => entry.url)).toEqual([
        '/__admin/scenario',
        `/v1${r.collectionPath}${everything}`,
      ]);
      const scenarios = (await admin('scenarios', 'alice')).body as { current: string };
      expect(scenarios.current).toBe('empty');
    });

    it(`starts a new session from the starting scenario, sharing its ${r.name} until the first write`, async () => {
      await names('reader');
      await create('writer', 'Mine');
      const listed = (await admin('sessions')).body as {
        max: number;
        sessions: Array<{ name: string; scenario: string; copied: boolean } & Record<string, unknown>>;
      };
      expect(listed.max).toBe(3);
      expect(listed.sessions.map((s) => [s.name, s.scenario, s[r.name], s.copied])).toEqual([
        ['default', 'one-of-each-status', start.size, false],
        ['reader', 'one-of-each-status', start.size, false],
        ['writer', 'one-of-each-status', start.size + 1, true],
      ]);
    });

    it('keeps at most maxSessions named sessions, dropping the least recently used', async () => {
      await create('one', 'One');
      await create('two', 'Two');
      await create('three', 'Three');
      await names('one');
      await create('four', 'Four');
      const listed = (await admin('sessions')).body as { sessions: Array<{ name: string }> };
      expect(listed.sessions.map((s) => s.name)).toEqual(['default', 'three', 'one', 'four']);
      // 'two' was evicted: it starts afresh.
      expect(await names('two')).toEqual(scenarioNames);
    });

    it('drops a named session, and refuses to drop the default one or an unknown one', async () => {
      await create('gone', 'Soon gone');
      expect((await admin('sessions/gone', undefined, { method: 'DELETE' })).body).toEqual({ dropped: 'gone' });
      expect(await names('gone')).toEqual(scenarioNames);
      const unknown = await admin('sessions/never', undefined, { method: 'DELETE' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'session_not_found', message: "no session is named 'never'" });
      const defaultOne = await admin('sessions/default', undefined, { method: 'DELETE' });
      expect(defaultOne.status).toBe(400);
      expect(defaultOne.body).toMatchObject({ code: 'invalid_session' });
    });

    it.each(['', ' ', 'a b', 'ü', 'x'.repeat(65), 'a/b', 'a,b'])(
      'answers 400 naming the header for the session name %j, and changes nothing',
      async (name) => {
        const response = await request(`${target.baseUrl}${r.collectionPath}`, {
          method: 'POST',
          headers: { ...jsonAuth, 'Petstore-Session': name },
          body: JSON.stringify(r.newItem({ [text]: 'Never' })),
        });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_session', status: 400 });
        expect((response.body as { message: string }).message).toContain('Petstore-Session');
        expect(await names(undefined)).toEqual(scenarioNames);
      },
    );

    it('accepts 64 letters, digits, dots, underscores and dashes', async () => {
      const name = `Worker-1_a.${'x'.repeat(53)}`;
      expect(name).toHaveLength(64);
      expect((await create(name, 'Long')).status).toBe(201);
    });

    it('keeps sessions apart under concurrent load from two workers', async () => {
      const worker = async (session: string) => {
        const made: unknown[] = [];
        for (let index = 0; index < 25; index++) {
          const [created] = await Promise.all([create(session, `${session}-${index}`), names(session)]);
          made.push(created.body[r.idField]);
        }
        return made;
      };
      const [left, right] = await Promise.all([worker('left'), worker('right')]);
      expect(left).toEqual(Array.from({ length: 25 }, (_, index) => index + (start.nextId as number)));
      expect(right).toEqual(left);
      const leftNames = await names('left');
      expect(leftNames.filter((name) => String(name).startsWith('right'))).toEqual([]);
      expect(leftNames).toHaveLength(start.size + 25);
      expect(await names(undefined)).toEqual(scenarioNames);
    });

    // A path the document does not have.
    const nowhere = '/owners-of-nothing';
    it('makes no session for requests without a key, so they cannot evict a keyed worker’s', async () => {
      await create('worker-1', 'Kept');
      for (let index = 0; index < 10; index++) {
        const refused = await request(`${target.baseUrl}${r.collectionPath}`, {
          headers: { 'Petstore-Session': `intruder-${index}` },
        });
        expect(refused.status).toBe(401);
      }
      // Nor with a wrong key, nor on a path that does not exist.
      await request(`${target.baseUrl}${r.collectionPath}`, {
        headers: { Authorization: 'Bearer nope', 'Petstore-Session': 'x-1' },
      });
      await request(`${target.baseUrl}${nowhere}`, { headers: { 'Petstore-Session': 'x-2' } });
      const listed = (await admin('sessions')).body as { sessions: Array<{ name: string }> };
      expect(listed.sessions.map((s) => s.name)).toEqual(['default', 'worker-1']);
      expect(await names('worker-1')).toEqual([...scenarioNames, 'Kept']);
    });

    it('keeps a request without a valid key out of the journal of the session it names', async () => {
      await create('worker-1', 'Mine');
      await request(`${target.baseUrl}${r.collectionPath}`, { headers: { 'Petstore-Session': 'worker-1' } });
      await request(`${target.baseUrl}${r.collectionPath}`, {
        headers: { Authorization: 'Bearer nope', 'Petstore-Session': 'worker-1' },
      });
      await request(`${target.baseUrl}${nowhere}`, { headers: { 'Petstore-Session': 'worker-1' } });
      const journal = (await admin('requests', 'worker-1')).body as {
        requests: Array<{ url: string; status: number }>;
      };
      expect(journal.requests.map((entry) => [entry.url, entry.status])).toEqual([[`/v1${r.collectionPath}`, 201]]);
      const defaultJournal = (await admin('requests')).body as { requests: unknown[] };
      expect(defaultJournal.requests).toEqual([]);
    });

    it('journals a keyed request refused before its key was checked (an unknown path) in its session', async () => {
      await request(`${target.baseUrl}${nowhere}`, { headers: as('worker-1') });
      const journal = (await admin('requests', 'worker-1')).body as {
        requests: Array<{ url: string; status: number }>;
      };
      expect(journal.requests.map((entry) => [entry.url, entry.status])).toEqual([[`/v1${nowhere}`, 404]]);
    });

    testsFor(subject, { mock: true })('is reachable in-process too, as mock.session(name)', async () => {
      await create('typed', 'Through HTTP');
      const mock = target.mock;
      if (!mock) throw new Error('the transport holds no mock in this process');
      const session = mock.session('typed');
      expect(
        session.store
          .collection(r.name)
          .all()
          .map((item) => item[text]),
      ).toContain('Through HTTP');
      await session.switchScenario('empty');
      expect(await names('typed')).toEqual([]);
      expect(mock.store.collection(r.name).size).toBe(start.size);
    });
  });
}

/** A session name as a client writes it on a real socket: what only a socket shows. */
export function sessionNameOverSocketSuite(subject: Subject): void {
  const r = subject.resource;
  describe('a session name over a real socket', () => {
    testsFor(subject, { raw: true })(
      'shows a non-ASCII name as the client wrote it (UTF-8) in the 400, not garbled',
      async () => {
        const target = await subject.start({ scenario: 'one-of-each-status' });
        try {
          const answer = await sendRaw(
            target.origin,
            `GET /v1${r.collectionPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-key\r\nPetstore-Session: Zoë-小白\r\nConnection: close\r\n\r\n`,
          );
          const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
          expect(answer.startsWith('HTTP/1.1 400 ')).toBe(true);
          expect(body.code).toBe('invalid_session');
          expect(body.message).toContain('got "Zoë-小白"');
        } finally {
          await target.close();
        }
      },
    );
  });
}
