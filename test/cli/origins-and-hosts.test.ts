import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestWithHost, sendRaw } from '../support/raw-request.js';
import { startMock, type RunningServer } from '../support/start-server.js';
import { killRunningClis, startCli, waitForBanner, waitForProxyBanner } from './start-cli.js';

afterEach(killRunningClis);

const key = { Authorization: 'Bearer dev-key' };
const newPet = '{"name":"Rex","categoryId":1}';

/** `http://127.0.0.1:PORT` of a running program, and its Host header as a client on this machine sends it. */
function whereIs(baseUrl: string): { origin: string; host: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, host: url.host };
}

async function petCount(baseUrl: string, headers: Record<string, string> = key): Promise<number> {
  const response = await fetch(`${baseUrl}/pets?limit=100`, { headers });
  return ((await response.json()) as unknown[]).length;
}

describe('petstore-mock over HTTP: origins and hosts', () => {
  it('answers a page on a loopback origin, and refuses another origin and a rebinding Host, changing nothing', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--scenario', 'one-of-each-status']);
    const baseUrl = await waitForBanner(cli);
    const { host } = whereIs(baseUrl);
    expect(cli.stdout()).not.toMatch(/Hosts|Origins/);

    const vite = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json', Origin: 'http://localhost:5173' },
      body: newPet,
    });
    expect(vite.status).toBe(201);
    expect(vite.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');

    // A form POST from another site: no preflight, so the mock itself must refuse it.
    const form = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
      body: newPet,
    });
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ code: 'origin_not_allowed', status: 403 });
    expect(form.headers.get('access-control-allow-origin')).toBeNull();

    const rebound = await requestWithHost(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json', Host: 'rebind.test:4010' },
      body: newPet,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ code: 'host_not_allowed', status: 403 });
    const journal = await requestWithHost(`${new URL(baseUrl).origin}/__admin/requests`, {
      headers: { ...key, Host: 'rebind.test' },
    });
    expect(journal.status).toBe(403);
    expect(journal.body).not.toContain('/v1/pets');

    expect(await petCount(baseUrl)).toBe(4);
    const own = await requestWithHost(`${baseUrl}/pets`, { headers: { ...key, Host: host } });
    expect(own.status).toBe(200);
  });

  it('refuses an HTTP/1.0 request without Host, whose name it cannot check, with 400 host_required', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent']);
    const baseUrl = await waitForBanner(cli);
    const answer = await sendRaw(baseUrl, 'GET /v1/pets HTTP/1.0\r\nAuthorization: Bearer dev-key\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"host_required"');
  });

  it('answers the origins and hosts allowed by flags, says so in the banner, and still refuses others', async () => {
    const cli = startCli([
      '--port',
      '0',
      '--log-level',
      'silent',
      '--cors-origin',
      'https://app.team.internal',
      '--allowed-host',
      'mock.team.internal',
    ]);
    const baseUrl = await waitForBanner(cli);
    expect(cli.stdout()).toContain(
      '  Hosts      localhost, 127.0.0.1, [::1], mock.team.internal; add a name with --allowed-host NAME',
    );
    expect(cli.stdout()).toContain('  Origins    loopback pages, its own, and https://app.team.internal');
    const app = await fetch(`${baseUrl}/pets`, { headers: { ...key, Origin: 'https://app.team.internal' } });
    expect(app.status).toBe(200);
    expect(app.headers.get('access-control-allow-origin')).toBe('https://app.team.internal');
    expect(app.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await fetch(`${baseUrl}/pets`, { headers: { ...key, Origin: 'https://evil.example' } })).status).toBe(403);
    // The dashboard, served under the allowed name, calls the admin API from its own origin.
    const dashboard = await requestWithHost(`${new URL(baseUrl).origin}/__admin/reset`, {
      method: 'POST',
      headers: { ...key, Host: 'mock.team.internal:4010', Origin: 'http://mock.team.internal:4010' },
    });
    expect(dashboard.status).toBe(200);
    expect((await requestWithHost(`${baseUrl}/pets`, { headers: { ...key, Host: 'other.internal' } })).status).toBe(
      403,
    );
  });

  it('reads PETSTORE_CORS_ORIGIN and PETSTORE_ALLOWED_HOST, and answers any Host with all', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent'], {
      PETSTORE_CORS_ORIGIN: '*',
      PETSTORE_ALLOWED_HOST: 'all',
    });
    const baseUrl = await waitForBanner(cli);
    expect(cli.stdout()).toContain('  Hosts      any (--allowed-host all: no protection against DNS rebinding)');
    expect((await requestWithHost(`${baseUrl}/pets`, { headers: { ...key, Host: 'rebind.test' } })).status).toBe(200);
    const any = await fetch(`${baseUrl}/pets`, { headers: { ...key, Origin: 'https://elsewhere.example' } });
    expect(any.status).toBe(200);
    expect(any.headers.get('access-control-allow-origin')).toBe('*');
    expect(any.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('petstore-mock proxy over HTTP: origins and hosts', () => {
  let upstream: RunningServer;
  beforeAll(async () => {
    upstream = await startMock({ keys: ['dev-key'], scenario: 'one-of-each-status' });
  });
  afterAll(() => upstream.close());

  it('forwards for a loopback page, and refuses another origin and a rebinding Host without forwarding', async () => {
    const cli = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', '--log-level', 'silent']);
    const base = await waitForProxyBanner(cli);
    const allowed = await fetch(`${base}/pets`, { headers: { ...key, Origin: 'http://127.0.0.1:5173' } });
    expect(allowed.status).toBe(200);
    const form = await fetch(`${base}/pets`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
      body: newPet,
    });
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ code: 'origin_not_allowed' });
    const rebound = await requestWithHost(`${base}/pets`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json', Host: 'rebind.test' },
      body: newPet,
    });
    expect(rebound.status).toBe(403);
    expect(await petCount(upstream.baseUrl)).toBe(3);
    const violations = await fetch(`${new URL(base).origin}/__admin/violations`, {
      headers: { ...key, Origin: 'https://evil.example' },
    });
    expect(violations.status).toBe(403);
  });
});
