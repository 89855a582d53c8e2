import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { evolvedDocumentPath } from '../evolution/support/evolved-documents.js';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { startServer, type RunningServer } from '../support/start-server.js';

/**
 * The dashboard over a document of two collections (`/categories`, which an
 * animal's `categoryId` refers to): every collection is equal, chosen by
 * name and read through `GET /__admin/store?resource=…`, with its own fields
 * and filters; none is shown first because it comes first.
 */
describe.skipIf(skipWithoutBrowser)(browserSuite('the dashboard over a document of several collections'), () => {
  let browser: Browser;
  let mock: Mock;
  let server: RunningServer;
  let page: Page;
  /** Every request the page sent, as `METHOD /path?query`. */
  const sent: string[] = [];
  const rows = () => page.locator('#items-rows tr').allTextContents();

  beforeAll(async () => {
    mock = createNodeMock({
      document: evolvedDocumentPath('with-categories'),
      scenario: 'one-of-each-status',
      publicFiles: loadWebPages({ defaultKey: 'dev-key' }),
    });
    server = await startServer(createNodeListener(mock));
    browser = await sharedChromium();
    page = await browser.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      sent.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(`${server.origin}/__admin/ui`);
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#items-rows tr').length > 0);
  }, 60_000);
  afterAll(async () => {
    await closeContexts(browser);
    await server?.close();
  });

  it('offers every collection of the document, in its order, each by its name', async () => {
    const names = mock.api.resources.map((resource) => resource.name);
    expect(names).toEqual(['pets', 'categories']);
    expect(await page.locator('#items-collection option').allTextContents()).toEqual(names);
  });

  it('shows the categories the scenario’s pets refer to once categories is chosen, read with ?resource=categories', async () => {
    const categories = mock.store.collection('categories').all();
    expect(categories.length).toBeGreaterThan(0);
    await page.locator('#items-collection').selectOption('categories');
    await expect
      .poll(() => page.locator('#items-size').textContent(), { timeout: 10_000 })
      .toBe(`${categories.length} categories`);
    expect(await page.locator('#items-columns th').allTextContents()).toEqual(['id', 'name']);
    expect(await rows()).toEqual(categories.map((category) => `${String(category.id)}${String(category.name)}`));
    expect(sent).toContain('GET /__admin/store?limit=100&resource=categories');
    // Categories take no filter: the pets' status filter is gone with them.
    expect(await page.locator('#items-filters select').count()).toBe(0);
  });

  it('keeps the choice across polls, and shows a category created through the API', async () => {
    const created = await fetch(`${server.baseUrl}/categories`, {
      method: 'POST',
      headers: { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ferrets' }),
    });
    expect(created.status).toBe(201);
    await expect.poll(() => rows(), { timeout: 10_000 }).toContainEqual(expect.stringContaining('Ferrets'));
    expect(await page.locator('#items-collection').inputValue()).toBe('categories');
  });

  it('counts each collection in the sessions table', async () => {
    const counts = mock.store.counts();
    await expect
      .poll(() => page.locator('#sessions-rows').textContent(), { timeout: 10_000 })
      .toContain(`${counts.pets} pets, ${counts.categories} categories`);
  });

  it('goes back to the pets with their status filter when pets is chosen again', async () => {
    await page.locator('#items-collection').selectOption('pets');
    await expect.poll(() => page.locator('#items-size').textContent(), { timeout: 10_000 }).toBe('3 pets');
    expect(await page.locator('#items-filter-status option').allTextContents()).toEqual([
      'any',
      'available',
      'pending',
      'sold',
    ]);
  });
});
