import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { startServer, type RunningServer } from '../support/start-server.js';

const key = 'share-key';
const otherKey = 'other-key';

/** A request that the server holds (the session's `timeout` fault answers nothing), on a socket of its own. */
interface Held {
  socket: Socket;
  /** What the server sent on it, if anything. */
  text: () => string;
}

const sockets: Socket[] = [];
let mock: RunningServer | undefined;
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await mock?.close();
  mock = undefined;
});

function send(origin: string, headers: Record<string, string>, target = '/v1/pets'): Held {
  const { port } = new URL(origin);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`);
  return { socket, text: () => text };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const status = (text: string): number => Number(text.split(' ')[1]);

describe("each client's share of the server", () => {
  /** A mock with 40 connections at most: a share of 10 per key and session, 20 per key, 10 per address. */
  const start = async () => {
    const node = createNodeMock({ keys: [key, otherKey] });
    mock = await startServer(createNodeListener(node), { maxConnections: 40, clientKeys: [key, otherKey] });
    // Every request of the default session is held from now on.
    const fault = await fetch(`${mock.origin}/__admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'timeout', probability: 1 }),
    });
    expect(fault.status).toBe(200);
    return mock;
  };

  it('answers 429 beyond a key and session’s share, and health and other clients all the while', async () => {
    const { origin } = await start();
    const held = Array.from({ length: 30 }, () => send(origin, { authorization: `Bearer ${key}` }));
    // Ten are held; the twenty beyond the share are refused at once, their connections closed.
    await until(() => held.filter((each) => each.text() !== '').length === 20);
    const refused = held.filter((each) => each.text() !== '');
    for (const each of refused) {
      expect(status(each.text())).toBe(429);
      expect(each.text()).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(each.text()).toContain('"code":"too_many_requests"');
      expect(each.text()).toContain('this key and session already have 10 requests in flight');
    }
    await until(() => refused.every((each) => each.socket.destroyed || each.socket.readableEnded));
    // Health, another session of the key, another key and a client without a key are all still answered.
    expect((await fetch(`${origin}/__admin/health`)).status).toBe(200);
    const otherSession = await fetch(`${origin}/v1/pets?limit=1`, {
      headers: { authorization: `Bearer ${key}`, 'petstore-session': 'other' },
    });
    expect(otherSession.status).toBe(200);
    const otherClient = await fetch(`${origin}/v1/pets?limit=1`, {
      headers: { authorization: `Bearer ${otherKey}`, 'petstore-session': 'other-client' },
    });
    expect(otherClient.status).toBe(200);
    expect((await fetch(`${origin}/v1/pets`)).status).toBe(401);
  });

  it('bounds a key across its sessions too, and counts a made-up key by its address', async () => {
    const { origin } = await start();
    for (const session of ['a', 'b', 'c']) {
      await fetch(`${origin}/__admin/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'petstore-session': session },
        body: JSON.stringify({ fault: 'timeout', probability: 1 }),
      });
    }
    const held = ['a', 'b', 'c'].flatMap((session) =>
      Array.from({ length: 10 }, () => send(origin, { authorization: `Bearer ${key}`, 'petstore-session': session })),
    );
    await until(() => held.filter((each) => each.text() !== '').length === 10);
    const refused = held.filter((each) => each.text() !== '');
    expect(refused.every((each) => each.text().includes('this key already has 20 requests in flight'))).toBe(true);
    // Made-up keys name nobody: twelve of them are one client, the address, with its share of 10 (the 401s are
    // answered at once, so they hold nothing: only the count while they are in flight matters).
    const guessed = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        fetch(`${origin}/v1/pets`, { headers: { authorization: `Bearer made-up-${index}` } }).then((r) => r.status),
      ),
    );
    expect(guessed.every((code) => code === 401 || code === 429)).toBe(true);
    expect((await fetch(`${origin}/__admin/health`)).status).toBe(200);
  });

  it('counts each request of a kept-alive connection under the session it names, not the one its last request named', async () => {
    const { origin } = await start();
    await fetch(`${origin}/__admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'petstore-session': 'held' },
      body: JSON.stringify({ fault: 'timeout', probability: 1 }),
    });
    // One connection: its first request (session `free`) is answered, its second (session `held`) is held.
    const reused = send(origin, { authorization: `Bearer ${key}`, 'petstore-session': 'free' }, '/v1/pets?limit=1');
    await until(() => reused.text().endsWith(']'));
    expect(status(reused.text())).toBe(200);
    reused.socket.write(
      `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\npetstore-session: held\r\n\r\n`,
    );
    const others = Array.from({ length: 9 }, () =>
      send(origin, { authorization: `Bearer ${key}`, 'petstore-session': 'held' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(others.every((each) => each.text() === '')).toBe(true);
    // Ten of session `held` are in flight, the reused connection's included: the next is beyond the share.
    const beyond = send(origin, { authorization: `Bearer ${key}`, 'petstore-session': 'held' });
    await until(() => beyond.text() !== '');
    expect(status(beyond.text())).toBe(429);
    expect(beyond.text()).toContain('this key and session already have 10 requests in flight');
  });

  it('counts no share for requests answered at once: pipelined reads beyond the share are all answered', async () => {
    const { origin } = await start();
    // Session `free` has no fault: each of its reads is answered in the turn it arrives, so it holds nothing, and
    // twenty of them sent at once on one connection (twice the share) are all answered, in order.
    const { port } = new URL(origin);
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const read = (index: number) =>
      `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\n` +
      `petstore-session: free\r\nx-request-id: read-${index}\r\n\r\n`;
    socket.write(Array.from({ length: 20 }, (_, index) => read(index)).join(''));
    await until(() => (text.match(/\r\nx-request-id: read-\d+\r\n/gi) ?? []).length === 20);
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(Array.from({ length: 20 }, () => 'HTTP/1.1 200'));
    expect(text.match(/x-request-id: read-\d+/gi)).toEqual(
      Array.from({ length: 20 }, (_, index) => `x-request-id: read-${index}`),
    );
    // The default session's requests are still held, and still bounded by the share.
    const held = Array.from({ length: 11 }, () => send(origin, { authorization: `Bearer ${key}` }));
    await until(() => held.filter((each) => each.text() !== '').length === 1);
    expect(status(held.find((each) => each.text() !== '')?.text() ?? '')).toBe(429);
  });

  it('counts a request held when nothing else was in flight: with a share of one, the next is refused', async () => {
    const node = createNodeMock({ keys: [key] });
    // Four connections at most: a share of one per key and session.
    mock = await startServer(createNodeListener(node), { maxConnections: 4, clientKeys: [key] });
    const { origin } = mock;
    await fetch(`${origin}/__admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'timeout', probability: 1 }),
    });
    const first = send(origin, { authorization: `Bearer ${key}`, 'x-request-id': 'first-held' });
    // The held request is journaled when its fault is taken: it is in flight from then on.
    await until(() => node.journal.list().some((entry) => entry.id === 'first-held'));
    const next = send(origin, { authorization: `Bearer ${key}` });
    await until(() => next.text() !== '');
    expect(status(next.text())).toBe(429);
    expect(next.text()).toContain('this key and session already have 1 requests in flight');
    expect(first.text()).toBe('');
  });

  it('gives a client its share back as its requests end', async () => {
    const { origin } = await start();
    const held = Array.from({ length: 10 }, () => send(origin, { authorization: `Bearer ${key}` }));
    const beyond = send(origin, { authorization: `Bearer ${key}` });
    await until(() => beyond.text() !== '');
    expect(status(beyond.text())).toBe(429);
    expect(held.every((each) => each.text() === '')).toBe(true);
    // The held clients leave; without the fault, the same key and session are served again.
    for (const each of held) each.socket.destroy();
    const cleared = await fetch(`${origin}/__admin/faults`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(cleared.status).toBe(200);
    // The server sees the held connections close, and gives their share back.
    let status200 = 0;
    for (const deadline = Date.now() + 5_000; status200 !== 200 && Date.now() < deadline;) {
      status200 = (await fetch(`${origin}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status;
    }
    expect(status200).toBe(200);
    const again = Array.from({ length: 10 }, () =>
      fetch(`${origin}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status),
    );
    expect(await Promise.all(again)).toEqual(Array.from({ length: 10 }, () => 200));
  });
});
