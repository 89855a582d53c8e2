import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions, toAppOptions } from '../../src/config/parse-options.js';
import type { Mock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { serveFiles } from '../support/serve-files.js';
import { startServer, type RunningServer } from '../support/start-server.js';
import { petsIn } from '../support/kit-model.js';

/** What the mock answered, as its socket saw it: whether a refusal happened on the server, not only in the browser. */
interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  origin: string | undefined;
  status: number;
}

/** The outcome of a fetch in the page: its status and body, or that the browser would not let the script read it. */
type Outcome = { status: number; body: string } | { blocked: string };

const page = (title: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><iframe name="sink"></iframe>`,
});

/**
 * The proof: headless Chromium on a page of another origin
 * (`http://evil.test:PORT`) and on a DNS-rebinding name (`http://rebind.test:MOCKPORT`,
 * resolving to the mock) can neither read nor change the mock started with
 * the CLI's defaults and the public `dev-key`; a dev server's page on
 * `http://localhost:PORT` still can. Chromium's `--host-resolver-rules` maps
 * both names to 127.0.0.1, so every connection stays on loopback.
 */
describe.skipIf(skipWithoutBrowser)(browserSuite('other origins and rebinding names in headless Chromium'), () => {
  let browser: Browser;
  let context: BrowserContext;
  let mock: Mock;
  let server: RunningServer;
  let attacker: Awaited<ReturnType<typeof serveFiles>>;
  let devServer: Awaited<ReturnType<typeof serveFiles>>;
  let mockUrl: string;
  const seen: Seen[] = [];

  /** GET or change the mock from Node, as curl would (no Origin, Host 127.0.0.1): the ground truth. */
  const admin = async (path: string) =>
    (await fetch(`${mockUrl}/__admin${path}`, { headers: { Authorization: 'Bearer dev-key' } })).json();

  beforeAll(async () => {
    // The mock exactly as `petstore-mock --port 0` configures it: the CLI's options, its policy, its pages.
    const built = createNodeMock({
      ...toAppOptions(parseOptions(['--port', '0', '--scenario', 'one-of-each-status', '--log-level', 'silent'], {})),
      publicFiles: loadWebPages({ defaultKey: 'dev-key' }),
    });
    // The CLI's default store is the process's memory: a mock whose calls answer at once.
    if ('shared' in built) throw new Error('expected the memory store, the CLI default');
    mock = built;
    const listener = createNodeListener(mock);
    server = await startServer((request: IncomingMessage, response: ServerResponse) => {
      response.on('finish', () =>
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          host: request.headers.host,
          origin: request.headers.origin,
          status: response.statusCode,
        }),
      );
      listener(request, response);
    });
    mockUrl = server.origin;
    attacker = await serveFiles({ '/': page('Win a prize') });
    devServer = await serveFiles({ '/': page('My app on a dev server') });
    browser = await sharedChromium();
    context = await browser.newContext();
  }, 180_000);
  afterAll(async () => {
    await closeContexts(browser);
    await server?.close();
    await attacker?.close();
    await devServer?.close();
  });

  /** Runs `fetch` in the page and says what its script got. */
  const fetchIn = (on: Page, url: string, init: RequestInit): Promise<Outcome> =>
    on.evaluate(
      async ([target, options]) => {
        try {
          const response = await fetch(target, options);
          return { status: response.status, body: await response.text() };
        } catch (error) {
          return { blocked: String(error) };
        }
      },
      [url, init] as const,
    );
  const withKey = { Authorization: 'Bearer dev-key' };
  const asJson = { ...withKey, 'Content-Type': 'application/json' };

  describe('a page on another origin (http://evil.test)', () => {
    let evil: Page;
    let evilOrigin: string;
    beforeAll(async () => {
      evilOrigin = attacker.origin.replace('127.0.0.1', 'evil.test');
      evil = await context.newPage();
      await evil.goto(`${evilOrigin}/`);
    });

    it('cannot read the pets or the journal with the public dev-key', async () => {
      for (const path of ['/v1/pets', '/__admin/requests', '/__admin/ui']) {
        const outcome = await fetchIn(evil, `${mockUrl}${path}`, { headers: withKey });
        expect(outcome, path).toHaveProperty('blocked');
      }
      // The preflights reached the mock and were refused there, with no allow headers.
      const preflights = seen.filter((entry) => entry.method === 'OPTIONS' && entry.origin === evilOrigin);
      expect(preflights.length).toBeGreaterThanOrEqual(2);
      expect(preflights.every((entry) => entry.status === 403)).toBe(true);
    });

    it('cannot create a pet: neither by a fetch with the key nor by a form POST, which the mock refuses itself', async () => {
      const body = '{"name":"Evil","categoryId":1}';
      expect(await fetchIn(evil, `${mockUrl}/v1/pets`, { method: 'POST', headers: asJson, body })).toHaveProperty(
        'blocked',
      );
      // "Simple" requests need no preflight: they reach the server, so the server must refuse them.
      await fetchIn(evil, `${mockUrl}/v1/pets`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'Content-Type': 'text/plain' },
        body,
      });
      await evil.evaluate((target) => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = target;
        form.enctype = 'text/plain';
        form.target = 'sink';
        const field = document.createElement('input');
        field.name = '{"name":"Evil","categoryId":1,"x":"';
        field.value = '"}';
        form.append(field);
        document.body.append(form);
        form.submit();
      }, `${mockUrl}/v1/pets`);
      await expect
        .poll(() => seen.filter((entry) => entry.method === 'POST' && entry.origin === evilOrigin).length)
        .toBeGreaterThanOrEqual(2);
      const posts = seen.filter((entry) => entry.method === 'POST' && entry.origin === evilOrigin);
      expect(posts.map((entry) => entry.status)).toEqual(posts.map(() => 403));
      expect(
        petsIn(mock.store)
          .list({ limit: 100 })
          .map((pet) => pet.name),
      ).not.toContain('Evil');
      expect(petsIn(mock.store).list({ limit: 100 })).toHaveLength(3);
    });

    it('cannot schedule faults, set latency, switch the scenario or empty the journal', async () => {
      const attempts: Array<[string, string, unknown]> = [
        ['/__admin/faults', 'POST', { status: 503, times: 1_000_000 }],
        ['/__admin/latency', 'PUT', { min: 60_000, max: 60_000 }],
        ['/__admin/scenario', 'POST', { name: 'empty' }],
        ['/__admin/requests', 'DELETE', undefined],
      ];
      for (const [path, method, body] of attempts) {
        const outcome = await fetchIn(evil, `${mockUrl}${path}`, {
          method,
          headers: asJson,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(outcome, `${method} ${path}`).toHaveProperty('blocked');
      }
      expect(await admin('/faults')).toEqual({ faults: [] });
      expect(await admin('/latency')).toEqual({ min: 0, max: 0 });
      expect(mock.scenario).toBe('one-of-each-status');
      expect(seen.filter((entry) => entry.origin === evilOrigin && entry.status < 400)).toEqual([]);
    });
  });

  describe('a DNS-rebinding page (http://rebind.test:MOCKPORT, the mock’s port, resolving to the mock)', () => {
    let rebound: Page;
    let reboundOrigin: string;
    beforeAll(async () => {
      reboundOrigin = mockUrl.replace('127.0.0.1', 'rebind.test');
      rebound = await context.newPage();
      // After the DNS flip the attacker's page runs in the origin http://rebind.test:MOCKPORT with its name pointing
      // at the mock. (Chromium itself also blocks a page first served from a public address from calling loopback,
      // through Local Network Access; other browsers do not, and the mock must not rely on it, so the script here
      // runs in a document the browser loaded from loopback under that name: the mock's own answer.)
      const navigation = await rebound.goto(`${reboundOrigin}/`);
      expect(navigation?.status()).toBe(403);
    });

    it('is same-origin in the browser’s eyes, yet gets 403 host_not_allowed for every read and change', async () => {
      const reads = [
        await fetchIn(rebound, '/v1/pets', { headers: withKey }),
        await fetchIn(rebound, '/__admin/requests', { headers: withKey }),
      ];
      const changes = [
        await fetchIn(rebound, '/v1/pets', { method: 'POST', headers: asJson, body: '{"name":"Evil","categoryId":1}' }),
        await fetchIn(rebound, '/__admin/faults', { method: 'POST', headers: asJson, body: '{"status":503}' }),
        await fetchIn(rebound, '/__admin/latency', {
          method: 'PUT',
          headers: asJson,
          body: '{"min":60000,"max":60000}',
        }),
        await fetchIn(rebound, '/__admin/scenario', { method: 'POST', headers: asJson, body: '{"name":"empty"}' }),
      ];
      for (const outcome of [...reads, ...changes]) {
        expect(outcome).toMatchObject({ status: 403 });
        expect(JSON.parse((outcome as { body: string }).body)).toMatchObject({ code: 'host_not_allowed', status: 403 });
      }
      // The page itself, and every call of its script.
      expect(seen.filter((entry) => entry.host === new URL(reboundOrigin).host).length).toBeGreaterThanOrEqual(7);
      expect(petsIn(mock.store).list({ limit: 100 })).toHaveLength(3);
      expect(await admin('/faults')).toEqual({ faults: [] });
      expect(await admin('/latency')).toEqual({ min: 0, max: 0 });
      expect(mock.scenario).toBe('one-of-each-status');
    });
  });

  describe('a dev server’s page on http://localhost:PORT (as Vite on localhost:5173)', () => {
    let app: Page;
    beforeAll(async () => {
      app = await context.newPage();
      await app.goto(devServer.origin.replace('127.0.0.1', 'localhost'));
    });

    it('lists and creates pets, and reads the answers', async () => {
      const listed = await fetchIn(app, `${mockUrl}/v1/pets`, { headers: withKey });
      expect(listed).toMatchObject({ status: 200 });
      expect(JSON.parse((listed as { body: string }).body)).toHaveLength(3);
      const created = await fetchIn(app, `${mockUrl}/v1/pets`, {
        method: 'POST',
        headers: asJson,
        body: '{"name":"Friend","categoryId":2}',
      });
      expect(created).toMatchObject({ status: 201 });
      expect(JSON.parse((created as { body: string }).body)).toMatchObject({ name: 'Friend' });
      expect(
        petsIn(mock.store)
          .list({ limit: 100 })
          .map((pet) => pet.name),
      ).toContain('Friend');
    });
  });
});
