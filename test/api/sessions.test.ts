import { beforeEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { auth, inProcessMock, jsonAuth, request, startMock, type InProcessMock } from '../support/start-server.js';

interface Pet {
  id: number;
  name: string;
}

describe('sessions (Petstore-Session)', () => {
  let mock: InProcessMock;
  beforeEach(() => {
    mock = inProcessMock({ scenario: 'one-of-each-status', maxSessions: 3 });
  });
  const as = (session: string | undefined, headers: Record<string, string> = auth) =>
    session === undefined ? headers : { ...headers, 'Petstore-Session': session };
  const create = (session: string | undefined, name: string) =>
    request<Pet>(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: as(session, jsonAuth),
      body: JSON.stringify({ name, categoryId: 1 }),
    });
  const names = async (session: string | undefined) =>
    (await request<Pet[]>(`${mock.baseUrl}/pets?limit=100`, { headers: as(session) })).body.map((pet) => pet.name);
  const admin = (path: string, session?: string, init: RequestInit = {}) =>
    request<Record<string, unknown>>(`${mock.origin}/__admin/${path}`, { ...init, headers: as(session, jsonAuth) });

  it('keeps what one session creates out of every other session, the default one included', async () => {
    await create('alice', 'Only Alice');
    await create('bob', 'Only Bob');
    await create(undefined, 'Only default');
    expect(await names('alice')).toEqual(['Bella', 'Max', 'Luna', 'Only Alice']);
    expect(await names('bob')).toEqual(['Bella', 'Max', 'Luna', 'Only Bob']);
    expect(await names(undefined)).toEqual(['Bella', 'Max', 'Luna', 'Only default']);
    expect(await names('carol')).toEqual(['Bella', 'Max', 'Luna']);
  });

  it('gives each session its own ids, counting from the scenario', async () => {
    expect((await create('alice', 'A')).body.id).toBe(4);
    expect((await create('bob', 'B')).body.id).toBe(4);
    expect((await create('alice', 'A2')).body.id).toBe(5);
  });

  it('switches, resets and journals one session only', async () => {
    expect((await admin('scenario', 'alice', { method: 'POST', body: '{"name":"empty"}' })).body).toEqual({
      scenario: 'empty',
      pets: 0,
    });
    expect(await names('alice')).toEqual([]);
    expect(await names(undefined)).toEqual(['Bella', 'Max', 'Luna']);
    await create('bob', 'Bob’s');
    await admin('reset', 'bob', { method: 'POST' });
    expect(await names('bob')).toEqual(['Bella', 'Max', 'Luna']);
    const journal = (await admin('requests', 'alice')).body as { requests: Array<{ url: string }> };
    expect(journal.requests.map((entry) => entry.url)).toEqual(['/__admin/scenario', '/v1/pets?limit=100']);
    const scenarios = (await admin('scenarios', 'alice')).body as { current: string };
    expect(scenarios.current).toBe('empty');
  });

  it('starts a new session from the starting scenario, sharing its pets until the first write', async () => {
    await names('reader');
    await create('writer', 'Mine');
    const listed = (await admin('sessions')).body as {
      max: number;
      sessions: Array<{ name: string; scenario: string; pets: number; copied: boolean; requests: number }>;
    };
    expect(listed.max).toBe(3);
    expect(listed.sessions.map((s) => [s.name, s.scenario, s.pets, s.copied])).toEqual([
      ['default', 'one-of-each-status', 3, false],
      ['reader', 'one-of-each-status', 3, false],
      ['writer', 'one-of-each-status', 4, true],
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
    expect(await names('two')).toEqual(['Bella', 'Max', 'Luna']);
  });

  it('drops a named session, and refuses to drop the default one or an unknown one', async () => {
    await create('gone', 'Soon gone');
    expect((await admin('sessions/gone', undefined, { method: 'DELETE' })).body).toEqual({ dropped: 'gone' });
    expect(await names('gone')).toEqual(['Bella', 'Max', 'Luna']);
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
      const response = await request(`${mock.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...jsonAuth, 'Petstore-Session': name },
        body: '{"name":"Never","categoryId":1}',
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_session', status: 400 });
      expect((response.body as { message: string }).message).toContain('Petstore-Session');
      expect(await names(undefined)).toEqual(['Bella', 'Max', 'Luna']);
    },
  );

  it('accepts 64 letters, digits, dots, underscores and dashes', async () => {
    const name = `Worker-1_a.${'x'.repeat(53)}`;
    expect(name).toHaveLength(64);
    expect((await create(name, 'Long')).status).toBe(201);
  });

  it('keeps sessions apart under concurrent load from two workers', async () => {
    const worker = async (session: string) => {
      const made: number[] = [];
      for (let index = 0; index < 25; index++) {
        const [created] = await Promise.all([create(session, `${session}-${index}`), names(session)]);
        made.push(created.body.id);
      }
      return made;
    };
    const [left, right] = await Promise.all([worker('left'), worker('right')]);
    expect(left).toEqual(Array.from({ length: 25 }, (_, index) => index + 4));
    expect(right).toEqual(left);
    const leftNames = await names('left');
    expect(leftNames.filter((name) => name.startsWith('right'))).toEqual([]);
    expect(leftNames).toHaveLength(28);
    expect(await names(undefined)).toEqual(['Bella', 'Max', 'Luna']);
  });

  it('makes no session for requests without a key, so they cannot evict a keyed worker’s', async () => {
    await create('worker-1', 'Kept');
    for (let index = 0; index < 10; index++) {
      const refused = await request(`${mock.baseUrl}/pets`, { headers: { 'Petstore-Session': `intruder-${index}` } });
      expect(refused.status).toBe(401);
    }
    // Nor with a wrong key, nor on a path that does not exist.
    await request(`${mock.baseUrl}/pets`, { headers: { Authorization: 'Bearer nope', 'Petstore-Session': 'x-1' } });
    await request(`${mock.baseUrl}/owners`, { headers: { 'Petstore-Session': 'x-2' } });
    const listed = (await admin('sessions')).body as { sessions: Array<{ name: string }> };
    expect(listed.sessions.map((s) => s.name)).toEqual(['default', 'worker-1']);
    expect(await names('worker-1')).toEqual(['Bella', 'Max', 'Luna', 'Kept']);
  });

  it('keeps a request without a valid key out of the journal of the session it names', async () => {
    await create('worker-1', 'Mine');
    await request(`${mock.baseUrl}/pets`, { headers: { 'Petstore-Session': 'worker-1' } });
    await request(`${mock.baseUrl}/pets`, {
      headers: { Authorization: 'Bearer nope', 'Petstore-Session': 'worker-1' },
    });
    await request(`${mock.baseUrl}/owners`, { headers: { 'Petstore-Session': 'worker-1' } });
    const journal = (await admin('requests', 'worker-1')).body as { requests: Array<{ url: string; status: number }> };
    expect(journal.requests.map((entry) => [entry.url, entry.status])).toEqual([['/v1/pets', 201]]);
    const defaultJournal = (await admin('requests')).body as { requests: unknown[] };
    expect(defaultJournal.requests).toEqual([]);
  });

  it('journals a keyed request refused before its key was checked (an unknown path) in its session', async () => {
    await request(`${mock.baseUrl}/owners`, { headers: as('worker-1') });
    const journal = (await admin('requests', 'worker-1')).body as { requests: Array<{ url: string; status: number }> };
    expect(journal.requests.map((entry) => [entry.url, entry.status])).toEqual([['/v1/owners', 404]]);
  });

  it('is reachable in-process too, as mock.session(name)', async () => {
    await create('typed', 'Through HTTP');
    const session = mock.mock.session('typed');
    expect(session.store.all().map((pet) => pet.name)).toContain('Through HTTP');
    await session.switchScenario('empty');
    expect(await names('typed')).toEqual([]);
    expect(mock.mock.store.size).toBe(3);
  });
});

describe('a session name over a real socket', () => {
  it('shows a non-ASCII name as the client wrote it (UTF-8) in the 400, not garbled', async () => {
    const server = await startMock({ scenario: 'one-of-each-status' });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('end', () => resolve(text));
        socket.write(
          Buffer.from(
            'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer test-key\r\nPetstore-Session: Zoë-小白\r\nConnection: close\r\n\r\n',
            'utf8',
          ),
        );
      });
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
      expect(answer.startsWith('HTTP/1.1 400 ')).toBe(true);
      expect(body.code).toBe('invalid_session');
      expect(body.message).toContain('got "Zoë-小白"');
    } finally {
      await server.close();
    }
  });
});
