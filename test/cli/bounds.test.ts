import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner } from './start-cli.js';

const key = 'bounds-key';
const auth = { Authorization: `Bearer ${key}` };

interface Health {
  status: string;
  journal: { bytes: number; maxBytes: number; entries: number };
}

interface JournalRead {
  requests: Array<{ id: string }>;
  omitted: number;
  maxReadBytes: number;
}

describe('petstore-mock under a flood, as a user starts it', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-cli-bounds-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
    killRunningClis();
  });

  const start = async (extra: string[] = []) => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--token', key, ...extra]);
    const baseUrl = await waitForBanner(cli);
    return { cli, baseUrl, origin: new URL(baseUrl).origin };
  };

  /** A create whose body holds 16 KiB (refused, 400, and journaled whole as far as the journal keeps bodies). */
  const heavyCreate = (baseUrl: string, session: string) =>
    fetch(`${baseUrl}/pets?${'q'.repeat(8_000)}=1`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Petstore-Session': session },
      body: JSON.stringify({ name: 'x'.repeat(16 * 1024), categoryId: 'not a number' }),
    }).then((response) => response.status);

  it('holds its journals within --max-journal-bytes across sessions, and says so in its health', async () => {
    const { baseUrl, origin } = await start(['--max-journal-bytes', '1MiB']);
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, index) => heavyCreate(baseUrl, `worker-${(round * 8 + index) % 20}`)),
      );
    }
    const health = (await (await fetch(`${origin}/__admin/health`)).json()) as Health;
    expect(health.journal.maxBytes).toBe(1024 * 1024);
    expect(health.journal.bytes).toBeLessThanOrEqual(1024 * 1024);
    // 80 entries of about 40 KB were made: the oldest of the whole mock made room.
    expect(health.journal.entries).toBeGreaterThan(10);
    expect(health.journal.entries).toBeLessThan(80);
    const sessions = (await (await fetch(`${origin}/__admin/sessions`, { headers: auth })).json()) as {
      sessions: Array<{ name: string; requests: number }>;
    };
    const held = sessions.sessions.reduce((sum, each) => sum + each.requests, 0);
    expect(held).toBe(health.journal.entries);
  });

  it('returns at most 2 MiB of a journal in one read, the newest entries, saying how many it left out', async () => {
    const { baseUrl, origin } = await start();
    for (let round = 0; round < 12; round++) {
      await Promise.all(Array.from({ length: 8 }, () => heavyCreate(baseUrl, 'one-session')));
    }
    const response = await fetch(`${origin}/__admin/requests`, {
      headers: { ...auth, 'Petstore-Session': 'one-session' },
    });
    const text = await response.text();
    const read = JSON.parse(text) as JournalRead;
    expect(read.maxReadBytes).toBe(2 * 1024 * 1024);
    expect(text.length).toBeLessThanOrEqual(2 * 1024 * 1024 + 200);
    expect(read.omitted).toBeGreaterThan(0);
    expect(read.omitted + read.requests.length).toBe(96);
  });

  it('still answers health and other clients while one keyed client holds 1,000 requests with a timeout fault', async () => {
    const { origin } = await start();
    const fault = await fetch(`${origin}/__admin/faults`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fault: 'timeout', probability: 1 }),
    });
    expect(fault.status).toBe(200);
    const { port } = new URL(origin);
    const answered: string[] = [];
    for (let index = 0; index < 1_000; index++) {
      const socket = connect(Number(port), '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => answered.push(chunk.toString('latin1', 0, 12)));
      socket.write(`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    }
    // A quarter of the connections is the client's share: the rest are refused, 429, and their connections closed.
    while (answered.length < 750) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered.every((line) => line === 'HTTP/1.1 429')).toBe(true);
    const health = await fetch(`${origin}/__admin/health`, { signal: AbortSignal.timeout(60_000) });
    expect(health.status).toBe(200);
    const other = await fetch(`${origin}/v1/pets?limit=1`, {
      headers: { ...auth, 'Petstore-Session': 'another-client' },
      signal: AbortSignal.timeout(60_000),
    });
    expect(other.status).toBe(200);
  }, 180_000);

  it('sends no page or file that may be framed or sniffed', async () => {
    const { origin } = await start();
    for (const path of [
      '/',
      '/docs',
      '/__admin/ui',
      '/__admin/ui/dashboard.js',
      '/docs/swagger-ui.css',
      '/openapi.json',
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('echoes at most a bounded part of a 900 KB input in an Error body', async () => {
    const { origin } = await start();
    const response = await fetch(`${origin}/__admin/scenario`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'n'.repeat(900_000) }),
    });
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text.length).toBeLessThan(2_500);
    expect((JSON.parse(text) as { message: string }).message).toMatch(
      /^no scenario is named 'n+… \[\d{6} characters left out\] …n+'/,
    );
  });

  it('refuses a fixture whose aliases could expand it past what it reads, before parsing it', async () => {
    const wide = Array.from({ length: 300_000 }, () => '1').join(',');
    const aliases = Array.from({ length: 100 }, (_, index) => `x${index}: *wide`).join('\n');
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, `description: a wide anchor\nanchor: &wide [${wide}]\n${aliases}\n`);
    const cli = startCli(['--port', '0', '--scenario', file]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('aliases among');
    expect(cli.stderr()).toContain('it was refused before parsing');
  });
});
