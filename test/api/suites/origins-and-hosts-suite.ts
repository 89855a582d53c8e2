import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { requestAs, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth } from '../../support/start-server.js';
import { onTestClock } from '../../support/test-clock.js';

const here = { Host: '127.0.0.1:4010' };
const evil = { ...here, Origin: 'https://evil.example' };

/**
 * Origins and hosts under the safe policy of the mock over HTTP (the CLI's:
 * loopback origins and Host names only, see check-host.ts and
 * cors-policy.ts), and under the in-process default, which answers any.
 */
export function originsAndHostsSuite(subject: Subject): void {
  const r = subject.resource;
  const write = JSON.stringify(r.newItem());

  describe('origins and hosts, with the safe policy of the mock over HTTP', () => {
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ origins: 'loopback', scenario: 'one-of-each-status' });
    });
    afterEach(() => target.close());
    // Over a socket, each request goes out with the Host header as written.
    const send = <T = unknown>(url: string, init: Parameters<typeof requestAs>[2] = {}) =>
      requestAs<T>(target, url, init);
    const start = subject.scenario('one-of-each-status');
    const everything = r.page ? `?${r.page.name}=${r.page.maximum}` : '';
    const size = async () =>
      (
        await send<unknown[]>(`${target.baseUrl}${r.collectionPath}${everything}`, {
          headers: { ...auth, ...here },
        })
      ).body.length;
    const journalled = async () =>
      (
        await send<{ requests: unknown[] }>(`${target.origin}/__admin/requests`, {
          headers: { ...auth, ...here },
        })
      ).body.requests.length;

    it(`lets a page on a loopback origin read and create ${r.name}, as a dev server on localhost:5173 needs`, async () => {
      const origin = { ...here, Origin: 'http://localhost:5173' };
      const listed = await send(`${target.baseUrl}${r.collectionPath}`, { headers: { ...auth, ...origin } });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
      const created = await send(`${target.baseUrl}${r.collectionPath}`, {
        method: 'POST',
        headers: { ...jsonAuth, ...origin },
        body: write,
      });
      expect(created.status).toBe(201);
      expect(await size()).toBe(start.size + 1);
    });

    it('refuses a form POST from another origin with 403 origin_not_allowed and creates nothing', async () => {
      const before = await journalled();
      const response = await send(`${target.baseUrl}${r.collectionPath}`, {
        method: 'POST',
        headers: { ...jsonAuth, ...evil, 'Content-Type': 'text/plain' },
        body: write,
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'origin_not_allowed', status: 403 });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('x-request-id')).not.toBeNull();
      expect(await journalled()).toBe(before);
      expect(await size()).toBe(start.size);
    });

    it('refuses the admin API and the dashboard to another origin: no fault, latency or scenario changes', async () => {
      const admin = (path: string, method: string, body?: unknown) =>
        send(`${target.origin}/__admin${path}`, {
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
      const faults = await send<{ faults: unknown[] }>(`${target.origin}/__admin/faults`, {
        headers: { ...auth, ...here },
      });
      expect(faults.body.faults).toEqual([]);
      const scenarios = await send<{ current: string }>(`${target.origin}/__admin/scenarios`, {
        headers: { ...auth, ...here },
      });
      expect(scenarios.body.current).toBe('one-of-each-status');
      const latency = await send(`${target.origin}/__admin/latency`, { headers: { ...auth, ...here } });
      expect(latency.body).toEqual({ min: 0, max: 0 });
    });

    it('answers a preflight from another origin with 403 and no allow headers, and one from loopback with 204', async () => {
      const preflight = (origin: string) =>
        send(`${target.baseUrl}${r.collectionPath}`, {
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
      expect(allowed.headers.get('access-control-allow-headers')?.split(', ')).toContain('Authorization');
      // The methods of the document and of the admin API (whose PUTs set the latency and the clock).
      expect(allowed.headers.get('access-control-allow-methods')?.split(', ')).toEqual(
        expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
      );
    });

    it('refuses a request whose Host names another site (DNS rebinding) with 403 host_not_allowed, changing nothing', async () => {
      const response = await send(`${target.baseUrl}${r.collectionPath}`, {
        method: 'POST',
        headers: { ...jsonAuth, Host: 'rebind.test:4010' },
        body: write,
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'host_not_allowed', status: 403 });
      expect(await size()).toBe(start.size);
      const read = await send(`${target.origin}/__admin/requests`, { headers: { ...auth, Host: 'rebind.test' } });
      expect(read.status).toBe(403);
    });

    testsFor(subject, { hostless: true })('refuses a request without Host with 400 host_required', async () => {
      const response = await send(`${target.baseUrl}${r.collectionPath}`, { headers: auth });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'host_required', status: 400 });
    });

    testsFor(subject, { timers: true })('refuses before injected latency, so that a refusal costs no wait', () =>
      onTestClock(async () => {
        const put = await send(`${target.origin}/__admin/latency`, {
          method: 'PUT',
          headers: { ...jsonAuth, ...here },
          body: '{"min":60000,"max":60000}',
        });
        expect(put.status).toBe(200);
        // Both are refused with the test's clock standing still: neither waits the minute.
        expect(
          (await send(`${target.baseUrl}${r.collectionPath}`, { headers: { ...auth, Host: 'rebind.test' } })).status,
        ).toBe(403);
        expect((await send(`${target.baseUrl}${r.collectionPath}`, { headers: { ...auth, ...evil } })).status).toBe(
          403,
        );
      }),
    );

    it('answers requests without Origin (curl, a page’s own GET) as before', async () => {
      const response = await send(`${target.baseUrl}${r.collectionPath}`, { headers: { ...auth, ...here } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('origins and hosts, in-process (the default of createMock, MSW and the middleware)', () => {
    testsFor(subject, { origins: 'any' })(
      'keeps answering any origin and any Host, as the app’s own dev server or test owns the origin',
      async () => {
        const target = await subject.start({ origins: 'any', scenario: 'one-of-each-status' });
        try {
          const response = await requestAs(target, `${target.baseUrl}${r.collectionPath}`, {
            method: 'POST',
            headers: { ...jsonAuth, Origin: 'https://app.example.org', Host: 'anything.example' },
            body: write,
          });
          expect(response.status).toBe(201);
          expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
          expect((await requestAs(target, `${target.baseUrl}${r.collectionPath}`, { headers: auth })).status).toBe(200);
        } finally {
          await target.close();
        }
      },
    );
  });

  describe('the dashboard with the safe policy', () => {
    testsFor(subject, { pages: true })(
      'is served to its own origin and to loopback pages, and refused to another origin',
      async () => {
        const target = await subject.start({ origins: 'loopback', pages: true });
        const own = await subject.start({ origins: 'loopback', pages: true, allowedHosts: ['mock.team.internal'] });
        try {
          const page = (headers: Record<string, string>) =>
            requestAs(target, `${target.origin}/__admin/ui`, { headers });
          expect((await page(here)).status).toBe(200);
          expect((await page({ Host: 'mock.team.internal', Origin: 'http://mock.team.internal' })).status).toBe(403);
          const ownPage = await requestAs(own, `${own.origin}/__admin/ui`, {
            headers: { Host: 'mock.team.internal', Origin: 'http://mock.team.internal' },
          });
          expect(ownPage.status).toBe(200);
          const refused = await page({ ...evil });
          expect(refused.status).toBe(403);
          expect(refused.headers.get('content-type')).toBe('application/json');
        } finally {
          await target.close();
          await own.close();
        }
      },
    );
  });
}
