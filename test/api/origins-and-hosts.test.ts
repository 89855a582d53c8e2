import { beforeEach, describe, expect, it } from 'vitest';
import { loadWebPages } from '../../src/node/web-pages.js';
import { auth, fetchAny, inProcessMock, jsonAuth, request, type InProcessMock } from '../support/start-server.js';

/** The policy the CLI's server gives the mock: loopback origins and hosts only (see check-host.ts, cors-policy.ts). */
const safe = { cors: { origins: 'loopback' }, hosts: {} } as const;
const here = { Host: '127.0.0.1:4010' };
const evil = { ...here, Origin: 'https://evil.example' };

describe('origins and hosts, with the safe policy of the mock over HTTP', () => {
  let mock: InProcessMock;
  beforeEach(() => {
    mock = inProcessMock({ ...safe, scenario: 'one-of-each-status', latency: { min: 0, max: 0 } });
  });
  const pets = async () => mock.mock.store.list({ limit: 100 }).length;

  it('lets a page on a loopback origin read and create pets, as a dev server on localhost:5173 needs', async () => {
    const origin = { ...here, Origin: 'http://localhost:5173' };
    const listed = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, ...origin } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    const created = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, ...origin },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.status).toBe(201);
    expect(await pets()).toBe(4);
  });

  it('refuses a form POST from another origin with 403 origin_not_allowed and creates nothing', async () => {
    const before = mock.mock.journal.list().length;
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, ...evil, 'Content-Type': 'text/plain' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'origin_not_allowed', status: 403 });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('x-request-id')).not.toBeNull();
    expect(await pets()).toBe(3);
    expect(mock.mock.journal.list()).toHaveLength(before);
  });

  it('refuses the admin API and the dashboard to another origin: no fault, latency or scenario changes', async () => {
    const admin = (path: string, method: string, body?: unknown) =>
      request(`${mock.origin}/__admin${path}`, {
        method,
        headers: { ...jsonAuth, ...evil },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    for (const [path, method, body] of [
      ['/faults', 'POST', { status: 503, times: 1000000 }],
      ['/latency', 'PUT', { min: 60000, max: 60000 }],
      ['/scenario', 'POST', { name: 'empty' }],
      ['/reset', 'POST', undefined],
      ['/requests', 'GET', undefined],
    ] as const) {
      const response = await admin(path, method, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toMatchObject({ code: 'origin_not_allowed' });
    }
    const faults = await request<{ faults: unknown[] }>(`${mock.origin}/__admin/faults`, {
      headers: { ...auth, ...here },
    });
    expect(faults.body.faults).toEqual([]);
    expect(mock.mock.scenario).toBe('one-of-each-status');
    const latency = await request(`${mock.origin}/__admin/latency`, { headers: { ...auth, ...here } });
    expect(latency.body).toEqual({ min: 0, max: 0 });
  });

  it('answers a preflight from another origin with 403 and no allow headers, and one from loopback with 204', async () => {
    const preflight = (origin: string) =>
      fetchAny(`${mock.baseUrl}/pets`, {
        method: 'OPTIONS',
        headers: {
          ...here,
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect([...refused.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const allowed = await preflight('http://127.0.0.1:5173');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('refuses a request whose Host names another site (DNS rebinding) with 403 host_not_allowed, changing nothing', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, Host: 'rebind.test:4010' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'host_not_allowed', status: 403 });
    expect(await pets()).toBe(3);
    const read = await request(`${mock.origin}/__admin/requests`, { headers: { ...auth, Host: 'rebind.test' } });
    expect(read.status).toBe(403);
  });

  it('refuses a request without Host with 400 host_required', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: auth });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'host_required', status: 400 });
  });

  it('refuses before injected latency, so that a refusal costs no wait', async () => {
    const put = await request(`${mock.origin}/__admin/latency`, {
      method: 'PUT',
      headers: { ...jsonAuth, ...here },
      body: '{"min":60000,"max":60000}',
    });
    expect(put.status).toBe(200);
    const started = performance.now();
    expect((await request(`${mock.baseUrl}/pets`, { headers: { ...auth, Host: 'rebind.test' } })).status).toBe(403);
    expect((await request(`${mock.baseUrl}/pets`, { headers: { ...auth, ...evil } })).status).toBe(403);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('answers requests without Origin (curl, a page’s own GET) as before', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, ...here } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('origins and hosts, in-process (the default of createMock, MSW and the middleware)', () => {
  it('keeps answering any origin and any Host, as the app’s own dev server or test owns the origin', async () => {
    const mock = inProcessMock({ scenario: 'one-of-each-status' });
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...jsonAuth, Origin: 'https://app.example.org', Host: 'anything.example' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect((await request(`${mock.baseUrl}/pets`, { headers: auth })).status).toBe(200);
  });
});

describe('the dashboard with the safe policy', () => {
  it('is served to its own origin and to loopback pages, and refused to another origin', async () => {
    const mock = inProcessMock({ ...safe, publicFiles: loadWebPages({ defaultKey: 'dev-key' }) });
    const page = (headers: Record<string, string>) => fetchAny(`${mock.origin}/__admin/ui`, { headers });
    expect((await page(here)).status).toBe(200);
    expect((await page({ Host: 'mock.team.internal', Origin: 'http://mock.team.internal' })).status).toBe(403);
    const own = inProcessMock({
      ...safe,
      hosts: { allowed: ['mock.team.internal'] },
      publicFiles: loadWebPages({ defaultKey: 'dev-key' }),
    });
    const ownPage = await fetchAny(`${own.origin}/__admin/ui`, {
      headers: { Host: 'mock.team.internal', Origin: 'http://mock.team.internal' },
    });
    expect(ownPage.status).toBe(200);
    const refused = await page({ ...evil });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/json');
  });
});
