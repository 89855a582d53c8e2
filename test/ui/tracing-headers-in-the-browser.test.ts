import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { serveFiles } from '../support/serve-files.js';

/** The outcome of a fetch in the page: its status, body and request id, or that the browser would not let it through. */
type Outcome = { status: number; body: string; requestId: string | null } | { blocked: string };

const page = (title: string) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1>`,
});

/** What Sentry's browser SDK, OpenTelemetry and an app of its own add to a page's fetches. */
const tracing = {
  'sentry-trace': '771a43a4192642f0b136d5159a501700-b81e3ed5a07a5e21-1',
  baggage: 'sentry-environment=dev,sentry-public_key=49d0f7386ad645858ae85020e393bef3,sentry-trace_id=771a43a4',
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  'x-request-id': 'page-request-1',
};
const withKey = { Authorization: 'Bearer dev-key', ...tracing };
const asJson = { ...withKey, 'Content-Type': 'application/json' };

/**
 * A page of a dev server on `http://localhost:PORT` calls the CLI mock
 * (`petstore-mock --port 0`, its defaults: loopback origins only) with the
 * headers tracing adds: every preflight asks for them, and the mock allows
 * them for an allowed origin. Any port of `localhost` is a loopback origin
 * to the mock's policy, so the ephemeral port here stands for Vite's 5173.
 * A page on another origin (`http://evil.test:PORT`, which Chromium's
 * `--host-resolver-rules` maps to 127.0.0.1) still cannot.
 */
describe.skipIf(skipWithoutBrowser)(browserSuite('tracing headers from a localhost page, in headless Chromium'), () => {
  let browser: Browser;
  let mockUrl: string;
  let devServer: Awaited<ReturnType<typeof serveFiles>>;
  let attacker: Awaited<ReturnType<typeof serveFiles>>;
  let app: Page;
  let evil: Page;

  /** The mock's store as the admin API reads it, from Node (no Origin): the ground truth. */
  const stored = async () =>
    (
      (await (
        await fetch(`${new URL(mockUrl).origin}/__admin/store`, { headers: { Authorization: 'Bearer dev-key' } })
      ).json()) as {
        items: Array<{ name: string }>;
      }
    ).items.map((pet) => pet.name);

  const fetchIn = (on: Page, url: string, init: RequestInit): Promise<Outcome> =>
    on.evaluate(
      async ([target, options]) => {
        try {
          const response = await fetch(target, options);
          return {
            status: response.status,
            body: await response.text(),
            requestId: response.headers.get('x-request-id'),
          };
        } catch (error) {
          return { blocked: String(error) };
        }
      },
      [url, init] as const,
    );

  beforeAll(async () => {
    const cli = startCli(['--port', '0', '--scenario', 'one-of-each-status', '--log-level', 'silent']);
    mockUrl = await waitForBanner(cli);
    devServer = await serveFiles({ '/': page('My app on a dev server') });
    attacker = await serveFiles({ '/': page('Win a prize') });
    browser = await sharedChromium();
    const context = await browser.newContext();
    app = await context.newPage();
    await app.goto(devServer.origin.replace('127.0.0.1', 'localhost'));
    evil = await context.newPage();
    await evil.goto(attacker.origin.replace('127.0.0.1', 'evil.test'));
  }, 180_000);
  afterAll(async () => {
    await closeContexts(browser);
    await devServer?.close();
    await attacker?.close();
    killRunningClis();
  });

  it('lists the pets with sentry-trace, baggage, traceparent and x-request-id, and reads the answer', async () => {
    const listed = await fetchIn(app, `${mockUrl}/pets`, { headers: withKey });
    expect(listed).toMatchObject({ status: 200, requestId: 'page-request-1' });
    expect(JSON.parse((listed as { body: string }).body)).toHaveLength(3);
  });

  it('creates a pet with them, which the mock keeps', async () => {
    const created = await fetchIn(app, `${mockUrl}/pets`, {
      method: 'POST',
      headers: asJson,
      body: '{"name":"Traced","categoryId":2}',
    });
    expect(created).toMatchObject({ status: 201 });
    expect(JSON.parse((created as { body: string }).body)).toMatchObject({ id: 4, name: 'Traced' });
    expect(await stored()).toContain('Traced');
  });

  it('cannot list or create from a page on another origin, with the same headers or without them', async () => {
    for (const headers of [withKey, { Authorization: 'Bearer dev-key' }]) {
      expect(await fetchIn(evil, `${mockUrl}/pets`, { headers })).toHaveProperty('blocked');
    }
    const created = await fetchIn(evil, `${mockUrl}/pets`, {
      method: 'POST',
      headers: asJson,
      body: '{"name":"Evil","categoryId":1}',
    });
    expect(created).toHaveProperty('blocked');
    expect(await stored()).not.toContain('Evil');
  });

  it('is refused by the browser when a localhost page asks for more headers than the bound', async () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`x-custom-${index}`, '1']));
    expect(await fetchIn(app, `${mockUrl}/pets`, { headers: { ...withKey, ...many } })).toHaveProperty('blocked');
    // Within the bound, the same page goes on working.
    const some = Object.fromEntries(Object.entries(many).slice(0, 40));
    expect(await fetchIn(app, `${mockUrl}/pets`, { headers: { ...withKey, ...some } })).toMatchObject({ status: 200 });
  });
});
