import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { startMockWithPages } from '../support/serve-pages.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { createProxy } from '../../src/proxy/create-proxy.js';
import { startServer, type RunningServer } from '../support/start-server.js';

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

describe.skipIf(skipWithoutBrowser)(browserSuite('the web pages in headless Chromium'), () => {
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
    browser = await sharedChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.on('request', (request) => {
      // Every page is served from loopback (the mock, or the proxy of the last test): anything else is outside.
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.hostname !== '127.0.0.1') outside.push(request.url());
    });
  }, 180_000);
  afterAll(async () => {
    await closeContexts(browser);
    await mock?.close();
  });

  describe('the API reference at /', () => {
    let page: Page;
    beforeAll(async () => {
      page = await context.newPage();
      await page.goto(mock.origin);
      await page.waitForSelector('.opblock', { timeout: 90_000 });
    }, 180_000);

    it('shows the description of the API, but not the document’s note on what its source leaves out', async () => {
      const info = await page.locator('.information-container').textContent();
      expect(info).toContain('All traffic is HTTP with JSON bodies');
      expect(info).not.toContain('Not shown by the source description');
      // The note stays in the document itself.
      const served = (await (await fetch(`${mock.origin}/openapi.json`)).json()) as { info: { description: string } };
      expect(served.info.description).toContain('Not shown by the source description');
    });

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
      await status.waitFor({ timeout: 90_000 });
      expect((await status.textContent())?.trim()).toMatch(/^200/);
      expect(await list.locator('.live-responses-table .microlight').first().textContent()).toContain('Bella');
    });
  });

  describe('the dashboard at /__admin/ui', () => {
    let page: Page;
    beforeAll(async () => {
      page = await context.newPage();
      await page.goto(`${mock.origin}/__admin/ui`);
    });

    it('fills in dev-key and shows the mock’s data at once, as the reference does, when it is the only key', async () => {
      await page.locator('#panels').waitFor({ state: 'visible' });
      expect(await page.getByLabel('API key').inputValue()).toBe('dev-key');
      expect(await page.locator('#status').textContent()).toContain('default key');
      expect(await page.locator('#items-rows tr').count()).toBe(3);
    });

    it('says clearly when the key is wrong, instead of a blank page', async () => {
      await page.getByLabel('API key').fill('not-the-key');
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.includes('refused'));
      expect(await page.locator('#status').textContent()).toContain('The key was refused (401)');
      expect(await page.locator('#panels').isHidden()).toBe(true);
    });

    it('shows the scenario and its pets once the key is right, and switches the scenario', async () => {
      await page.getByLabel('API key').fill('dev-key');
      await page.getByRole('button', { name: 'Use this key' }).click();
      await page.locator('#panels').waitFor({ state: 'visible' });
      expect(await page.locator('#scenario-current').textContent()).toBe('one-of-each-status');
      expect(await page.locator('#items-rows tr').count()).toBe(3);
      await page.locator('#scenario-choice').selectOption('empty');
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForFunction(() => document.getElementById('scenario-current')?.textContent === 'empty');
      expect(await page.locator('#items-rows').textContent()).toContain('No pets.');
      await page.getByRole('button', { name: 'Reset to the scenario' }).click();
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.includes('Back to the'));
      await page.locator('#scenario-choice').selectOption('one-of-each-status');
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForFunction(() => document.querySelectorAll('#items-rows tr').length === 3);
    });

    it('keeps the key in sessionStorage, never in the URL', async () => {
      expect(page.url()).not.toContain('dev-key');
      expect(await page.evaluate(() => sessionStorage.getItem('petstore-kit:key'))).toBe('dev-key');
    });

    it('shows a request made from another tab in the live journal, its key redacted', async () => {
      const other = await context.newPage();
      // A light page of the mock's origin (the reference would load swagger-ui first, slow on a loaded machine).
      await other.goto(`${mock.origin}/openapi.json`);
      await other.evaluate(async () => {
        await fetch('/v1/pets?limit=2&status=sold', { headers: { Authorization: 'Bearer dev-key' } });
      });
      await page.waitForFunction(
        () => document.getElementById('journal-rows')?.textContent?.includes('/v1/pets?limit=2&status=sold'),
        undefined,
        { timeout: 90_000 },
      );
      const row = page.locator('#journal-rows tr').filter({ hasText: '/v1/pets?limit=2&status=sold' }).first();
      await row.locator('summary').click();
      const details = await row.locator('details').textContent();
      expect(details).toContain('Bearer [redacted]');
      expect(details).toContain('"Luna"');
      await other.close();
    }, 180_000);

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
    });

    it('has labels on its fields and headings in order', async () => {
      expect(await accessibilityProblems(page)).toEqual([]);
    });
  });

  it('asks a mock for no proxy violations (no 404 in the console), across refreshes', async () => {
    const page = await context.newPage();
    const asked: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    await page.goto(`${mock.origin}/__admin/ui`);
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Connected.');
    expect(asked).toContain('/__admin/sessions');
    expect(asked).not.toContain('/__admin/violations');
    expect(failures).toEqual([]);
    expect(await page.locator('#violations').isHidden()).toBe(true);
    await page.close();
  });

  it('leaves the key empty, and the data hidden, when the mock accepts a key of its own', async () => {
    const own = await startMockWithPages({ keys: ['a-key-of-mine'] });
    try {
      const page = await context.newPage();
      await page.goto(`${own.origin}/__admin/ui`);
      await page.locator('#fault-operation option[value="listPets"]').waitFor({ state: 'attached' });
      expect(await page.getByLabel('API key').inputValue()).toBe('');
      expect(await page.locator('#panels').isHidden()).toBe(true);
      await page.close();
    } finally {
      await own.close();
    }
  });

  it('shows every column of every table at a phone’s width (375 px): none cut off, each value labelled', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await phone.newPage();
    await fetch(`${mock.baseUrl}/pets`, {
      headers: { Authorization: 'Bearer dev-key', 'Petstore-Session': 'a-rather-long-session-name' },
    });
    await page.goto(`${mock.origin}/__admin/ui`);
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.getElementById('sessions-rows')?.textContent?.includes('a-rather-long'));
    await page.waitForFunction(() => (document.getElementById('journal-rows')?.querySelectorAll('td').length ?? 0) > 1);
    const tables = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('#panels .scroll')]
        .filter((box) => box.offsetParent !== null)
        .map((box) => ({
          rows: box.querySelector('tbody')?.id,
          cut: box.scrollWidth > box.clientWidth + 1,
          beyond: [...box.querySelectorAll('td')].filter((cell) => cell.getBoundingClientRect().right > innerWidth + 1)
            .length,
        })),
    );
    expect(tables.map((table) => table.rows)).toEqual(
      expect.arrayContaining(['items-rows', 'journal-rows', 'sessions-rows', 'faults-rows']),
    );
    for (const table of tables) expect(table, table.rows).toMatchObject({ cut: false, beyond: 0 });
    // A wide table's cells say which column they are, since its header row is not shown there.
    expect(await page.locator('#sessions-rows td').first().getAttribute('data-label')).toBe('name');
    await phone.close();
  });

  it('serves the reference under /__admin/docs too, as the Express/Vite middleware does', async () => {
    const page = await context.newPage();
    await page.goto(`${mock.origin}/__admin/docs`);
    await page.waitForSelector('.opblock', { timeout: 90_000 });
    expect(await page.locator('.opblock').count()).toBe(3);
    await page.close();
  });

  it.each([
    ['1280×800', 1280, 800],
    ['a phone', 390, 844],
  ])('fits %s without sideways scrolling', async (_name, width, height) => {
    const small = await browser.newContext({ viewport: { width, height } });
    const page = await small.newPage();
    await page.goto(`${mock.origin}/__admin/ui`);
    // The page fills in dev-key and connects by itself first: let it, so that nothing races the click below.
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.getByLabel('API key').fill('dev-key');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#panels').waitFor({ state: 'visible' });
    expect(await fitsWidth(page)).toBe(true);
    await page.goto(mock.origin);
    await page.waitForSelector('.opblock');
    expect(await fitsWidth(page)).toBe(true);
    await small.close();
  });

  it('shows ids beyond 2^53 with every digit, as the mock sent them', async () => {
    const page = await context.newPage();
    await page.goto(`${mock.origin}/__admin/ui`);
    // The page fills in dev-key and connects by itself first: let it, so that nothing races the click below.
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.getByLabel('API key').fill('dev-key');
    await page.locator('#session').fill('big-ids-check');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('#panels').waitFor({ state: 'visible' });
    await page.locator('#scenario-choice').selectOption('big-ids');
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.waitForFunction(() => document.getElementById('scenario-current')?.textContent === 'big-ids');
    // JSON.parse would show 9223372036854776000 and 9007199254740992.
    expect(await page.locator('#items-rows').textContent()).toBe('9223372036854775807Largest9007199254740993sold');
    await page.close();
  });

  it('shows the violations and the coverage when the mock runs as the proxy', async () => {
    const proxy = createProxy({ upstream: mock.baseUrl, publicFiles: loadWebPages({ defaultKey: 'dev-key' }) });
    const server = await startServer(proxy.listener);
    try {
      await fetch(`${server.baseUrl}/pets?limit=0`, { headers: { Authorization: 'Bearer dev-key' } });
      const page = await context.newPage();
      await page.goto(`${server.origin}/__admin/ui`);
      // The page fills in dev-key and connects by itself first: let it, so that nothing races the click below.
      await page.locator('#panels').waitFor({ state: 'visible' });
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
