import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, noBrowser } from '../support/browser.js';
import { startMockWithPages } from '../support/serve-pages.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { createProxy } from '../../src/proxy/create-proxy.js';
import { startServer, type RunningServer } from '../support/start-server.js';

const screenshots = mkdtempSync(join(tmpdir(), 'petstore-screenshots-'));

/** Accessibility basics the page must have: every field labelled, headings in order (no level skipped). */
async function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const field of document.querySelectorAll('input, select, textarea')) {
      const labelled =
        (field as HTMLInputElement).labels?.length ||
        field.getAttribute('aria-label') ||
        field.getAttribute('aria-labelledby');
      if (!labelled && (field as HTMLInputElement).type !== 'hidden')
        problems.push(`unlabelled ${field.outerHTML.slice(0, 80)}`);
    }
    let previous = 0;
    for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
      const level = Number(heading.tagName[1]);
      if (previous !== 0 && level > previous + 1)
        problems.push(`heading ${heading.tagName} "${heading.textContent}" after h${previous}`);
      previous = level;
    }
    if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
    return problems;
  });
}

/** Whether the page fits the viewport's width (nothing to scroll sideways). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

describe.skipIf(noBrowser !== undefined)('the web pages in headless Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let mock: RunningServer;
  const outside: string[] = [];

  beforeAll(async () => {
    mock = await startMockWithPages({
      scenario: 'one-of-each-status',
      fixtures: {
        'big-ids': {
          description: 'Ids beyond 2^53',
          pets: [{ id: 9223372036854775807n, name: 'Largest', categoryId: 9007199254740993n, status: 'sold' }],
        },
      },
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.on('request', (request) => {
      // Every page is served from loopback (the mock, or the proxy of the last test): anything else is outside.
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') outside.push(request.url());
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  describe('the API reference at /', () => {
    let page: Page;
    beforeAll(async () => {
      page = await context.newPage();
      await page.goto(mock.origin);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
    }, 30_000);

    it('shows the three operations, rendered from the served openapi.yaml', async () => {
      const summaries = await page.locator('.opblock-summary-description').allTextContents();
      expect(summaries).toEqual(expect.arrayContaining(['List animals', 'Add an animal', 'Get an animal']));
    });

    it('marks getPet deprecated', async () => {
      const deprecated = page.locator('.opblock-deprecated');
      expect(await deprecated.count()).toBe(1);
      expect(await deprecated.textContent()).toContain('/pets/{petId}');
    });

    it('runs "Try it out" for GET /pets against the mock itself, with dev-key filled in', async () => {
      const list = page.locator('.opblock-get').filter({ hasText: 'List animals' }).first();
      await list.locator('.opblock-summary').click();
      await list.getByRole('button', { name: 'Try it out' }).click();
      await list.getByRole('button', { name: 'Execute' }).click();
      const status = list.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 10_000 });
      expect((await status.textContent())?.trim()).toMatch(/^200/);
      expect(await list.locator('.live-responses-table .microlight').first().textContent()).toContain('Bella');
      await page.screenshot({ path: join(screenshots, 'reference.png'), fullPage: false });
    });
  });

  describe('the dashboard at /__admin/ui', () => {
    let page: Page;
    beforeAll(async () => {
      page = await context.newPage();
      await page.goto(`${mock.origin}/__admin/ui`);
    });

    it('says clearly when the key is wrong, instead of a blank page', async () => {
      await page.getByLabel('API key').fill('not-the-key');
      await page.getByRole('button', { name: 'Use this key' }).click();
      await expect(page.locator('#status').textContent()).resolves.toBeDefined();
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.includes('refused'));
      expect(await page.locator('#status').textContent()).toContain('The key was refused (401)');
      expect(await page.locator('#panels').isHidden()).toBe(true);
    });

    it('shows the scenario and its pets once the key is right, and switches the scenario', async () => {
      await page.getByLabel('API key').fill('dev-key');
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.locator('#panels').waitFor({ state: 'visible' });
      expect(await page.locator('#scenario-current').textContent()).toBe('one-of-each-status');
      expect(await page.locator('#pets-rows tr').count()).toBe(3);
      await page.locator('#scenario-choice').selectOption('empty');
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForFunction(() => document.getElementById('scenario-current')?.textContent === 'empty');
      expect(await page.locator('#pets-rows').textContent()).toContain('No pets.');
      await page.getByRole('button', { name: 'Reset to the scenario' }).click();
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.includes('Back to the'));
      await page.locator('#scenario-choice').selectOption('one-of-each-status');
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForFunction(() => document.querySelectorAll('#pets-rows tr').length === 3);
    });

    it('keeps the key in sessionStorage, never in the URL', async () => {
      expect(page.url()).not.toContain('dev-key');
      expect(await page.evaluate(() => sessionStorage.getItem('petstore-kit:key'))).toBe('dev-key');
    });

    it('shows a request made from another tab in the live journal, its key redacted', async () => {
      const other = await context.newPage();
      await other.goto(`${mock.origin}/docs`);
      await other.evaluate(async () => {
        await fetch('/v1/pets?limit=2&status=sold', { headers: { Authorization: 'Bearer dev-key' } });
      });
      await page.waitForFunction(
        () => document.getElementById('journal-rows')?.textContent?.includes('/v1/pets?limit=2&status=sold'),
        undefined,
        { timeout: 10_000 },
      );
      const row = page.locator('#journal-rows tr').filter({ hasText: '/v1/pets?limit=2&status=sold' }).first();
      await row.locator('summary').click();
      const details = await row.locator('details').textContent();
      expect(details).toContain('Bearer [redacted]');
      expect(details).toContain('"Luna"');
      await other.close();
    });

    it('sets a fault, and the next request fails with it', async () => {
      await page.locator('#fault-operation').selectOption('listPets');
      await page.locator('#fault-kind').selectOption('status');
      await page.locator('#fault-status').fill('503');
      await page.getByRole('button', { name: 'Add fault' }).click();
      await page.waitForFunction(() => document.getElementById('faults-rows')?.textContent?.includes('status 503'));
      const response = await fetch(`${mock.baseUrl}/pets`, { headers: { Authorization: 'Bearer dev-key' } });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'injected_fault' });
    });

    it('lists the sessions with their scenario and size', async () => {
      await fetch(`${mock.baseUrl}/pets`, { headers: { Authorization: 'Bearer dev-key', 'Petstore-Session': 'qa-7' } });
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.waitForFunction(() => document.getElementById('sessions-rows')?.textContent?.includes('qa-7'));
      expect(await page.locator('#sessions-rows').textContent()).toContain('one-of-each-status');
      await page.screenshot({ path: join(screenshots, 'dashboard.png'), fullPage: true });
    });

    it('has labels on its fields and headings in order', async () => {
      expect(await accessibilityProblems(page)).toEqual([]);
    });
  });

  it.each([
    ['1280×800', 1280, 800],
    ['a phone', 390, 844],
  ])('fits %s without sideways scrolling', async (_name, width, height) => {
    const small = await browser.newContext({ viewport: { width, height } });
    const page = await small.newPage();
    await page.goto(`${mock.origin}/__admin/ui`);
    await page.getByLabel('API key').fill('dev-key');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#panels').waitFor({ state: 'visible' });
    expect(await fitsWidth(page)).toBe(true);
    await page.goto(mock.origin);
    await page.waitForSelector('.opblock');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(screenshots, `reference-${width}.png`) });
    await small.close();
  });

  it('shows ids beyond 2^53 with every digit, as the mock sent them', async () => {
    const page = await context.newPage();
    await page.goto(`${mock.origin}/__admin/ui`);
    await page.getByLabel('API key').fill('dev-key');
    await page.locator('#session').fill('big-ids-check');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.locator('#scenario-choice').selectOption('big-ids');
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.waitForFunction(() => document.getElementById('scenario-current')?.textContent === 'big-ids');
    // JSON.parse would show 9223372036854776000 and 9007199254740992.
    expect(await page.locator('#pets-rows').textContent()).toBe('9223372036854775807Largest9007199254740993sold');
    await page.close();
  });

  it('shows the violations and the coverage when the mock runs as the proxy', async () => {
    const proxy = createProxy({ upstream: mock.baseUrl, publicFiles: loadWebPages({ defaultKey: 'dev-key' }) });
    const server = await startServer(proxy.listener);
    try {
      await fetch(`${server.baseUrl}/pets?limit=0`, { headers: { Authorization: 'Bearer dev-key' } });
      const page = await context.newPage();
      await page.goto(`${server.origin}/__admin/ui`);
      await page.getByLabel('API key').fill('dev-key');
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.locator('#violations').waitFor({ state: 'visible' });
      expect(await page.locator('#violations-rows').textContent()).toContain("query parameter 'limit' must be >= 1");
      expect(await page.locator('#coverage-rows').textContent()).toContain('not in the document');
      await page.close();
    } finally {
      await server.close();
    }
  });

  it('loads nothing from outside the machine', () => {
    expect(outside).toEqual([]);
  });
});
