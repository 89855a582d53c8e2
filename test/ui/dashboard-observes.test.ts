import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { startServer, type RunningServer } from '../support/start-server.js';

const auth = { Authorization: 'Bearer dev-key' };
/** A QA worker's session: its own pets, faults and journal. */
const worker = { ...auth, 'Petstore-Session': 'w2' };

/**
 * The dashboard looks without touching: a QA engineer schedules a 503 for
 * session `w2` and opens `w2` in the dashboard; the worker's next call still
 * gets the 503, and w2's journal holds only the worker's own requests.
 */
describe.skipIf(skipWithoutBrowser)(browserSuite('the dashboard observes a session without changing it'), () => {
  let browser: Browser;
  let mock: Mock;
  let server: RunningServer;
  let page: Page;
  /** Every request the page sent, as `METHOD /path?query`. */
  const sent: string[] = [];

  const adminOf = async (path: string, headers: Record<string, string> = worker) =>
    (await fetch(`${server.origin}/__admin${path}`, { headers })).json();
  const rows = (id: string) => page.locator(`#${id} tr`).allTextContents();

  beforeAll(async () => {
    mock = createNodeMock({ scenario: 'one-of-each-status', publicFiles: loadWebPages({ defaultKey: 'dev-key' }) });
    server = await startServer(createNodeListener(mock));
    browser = await sharedChromium();
    page = await browser.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      sent.push(`${request.method()} ${url.pathname}${url.search}`);
    });
  }, 180_000);
  afterAll(async () => {
    await closeContexts(browser);
    await server?.close();
  });

  it('leaves a 503 scheduled for w2 in place, and w2’s journal without its reads', async () => {
    // The worker made its session with one call, then QA scheduled the fault.
    expect((await fetch(`${server.baseUrl}/pets`, { headers: worker })).status).toBe(200);
    const fault = await fetch(`${server.origin}/__admin/faults`, {
      method: 'POST',
      headers: { ...worker, 'Content-Type': 'application/json' },
      body: JSON.stringify({ operationId: 'listPets', status: 503 }),
    });
    expect(fault.status).toBe(200);

    await page.goto(`${server.origin}/__admin/ui`);
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.locator('#session').fill('w2');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Connected.');
    // The page shows w2's pets and its fault, and polls a few times more.
    expect(await rows('items-rows')).toHaveLength(3);
    expect((await rows('faults-rows')).join()).toContain('status 503');
    const polled = sent.length;
    await expect.poll(() => sent.length, { timeout: 90_000 }).toBeGreaterThan(polled + 10);

    // It read the pets through the admin API, never through /v1.
    expect(sent.filter((request) => request.includes('/v1/'))).toEqual([]);
    expect(sent).toContain('GET /__admin/store?limit=100&resource=pets');
    // The fault is still there, and the worker's next call gets it.
    expect(await adminOf('/faults')).toMatchObject({ faults: [{ operationId: 'listPets', status: 503, times: 1 }] });
    expect((await fetch(`${server.baseUrl}/pets`, { headers: worker })).status).toBe(503);
    expect((await fetch(`${server.baseUrl}/pets`, { headers: worker })).status).toBe(200);
    // w2's journal holds the worker's three API calls and QA's fault, none of the dashboard's reads.
    const journal = (await adminOf('/requests')) as { requests: Array<{ method: string; url: string }> };
    expect(journal.requests.map((entry) => `${entry.method} ${entry.url}`)).toEqual([
      'GET /v1/pets',
      'POST /__admin/faults',
      'GET /v1/pets',
      'GET /v1/pets',
    ]);
  }, 180_000);

  it('updates the sessions’ and the faults’ counters with each poll, without a refresh', async () => {
    const sessionRow = () => page.locator('#sessions-rows tr').filter({ hasText: 'w2' }).first().textContent();
    // The fault was used up above; the page shows none left for w2 without being told to refresh.
    await expect.poll(() => page.locator('#faults-rows').textContent(), { timeout: 90_000 }).toContain('No fault');
    await fetch(`${server.origin}/__admin/faults`, {
      method: 'POST',
      headers: { ...worker, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 500, times: 7 }),
    });
    await expect.poll(() => page.locator('#faults-rows').textContent(), { timeout: 90_000 }).toContain('status 500');
    // The sessions table counts w2's faults (1) and requests; a new worker session shows up by itself.
    await expect.poll(sessionRow, { timeout: 90_000 }).toMatch(/^w2one-of-each-status3 petsshared\d+1/);
    await fetch(`${server.baseUrl}/pets`, { headers: { ...auth, 'Petstore-Session': 'w3' } });
    await expect.poll(() => page.locator('#sessions-rows').textContent(), { timeout: 90_000 }).toContain('w3');
    // A pet created by the worker shows in the pets and in the count.
    await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Petstore-Session': 'w3', 'Content-Type': 'application/json' },
      body: '{"name":"Not in w2","categoryId":1}',
    });
    mock.session('w2').clearFaults();
    await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...worker, 'Content-Type': 'application/json' },
      body: '{"name":"Polled","categoryId":1}',
    });
    await expect.poll(() => rows('items-rows'), { timeout: 90_000 }).toHaveLength(4);
    expect((await rows('items-rows')).join()).toContain('Polled');
    expect((await rows('items-rows')).join()).not.toContain('Not in w2');
    expect(await page.locator('#items-size').textContent()).toBe('4 pets');
  }, 180_000);

  it('filters by the values the document gives, through the admin API', async () => {
    expect(await page.locator('#items-filter-status option').allTextContents()).toEqual([
      'any',
      'available',
      'pending',
      'sold',
    ]);
    await page.locator('#items-filter-status').selectOption('sold');
    await expect.poll(() => rows('items-rows'), { timeout: 90_000 }).toEqual(['3Luna3sold']);
    expect(sent).toContain('GET /__admin/store?limit=100&resource=pets&status=sold');
    // The choice survives the next polls.
    const polled = sent.length;
    await expect.poll(() => sent.length, { timeout: 90_000 }).toBeGreaterThan(polled + 6);
    expect(await rows('items-rows')).toEqual(['3Luna3sold']);
  }, 30_000);
});
