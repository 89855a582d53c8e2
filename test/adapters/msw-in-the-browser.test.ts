import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { launchChromium, pageErrors } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { serveFiles, type ServedFile } from '../support/serve-files.js';

/** The page, bundled as a user's bundler would: ESM for the browser, no Node built-ins allowed. */
async function bundlePage(): Promise<Record<string, ServedFile>> {
  const result = await build({
    entryPoints: [join(packageRoot, 'test/adapters/browser-page/page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: '/page',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, ServedFile> = {
    '/': {
      type: 'text/html',
      body: '<!doctype html><meta charset="utf-8"><title>petstore-kit in a browser</title><ul id="output"></ul><script type="module" src="/page.js"></script>',
    },
    '/mockServiceWorker.js': {
      type: 'text/javascript',
      body: readFileSync(join(packageRoot, 'node_modules/msw/lib/mockServiceWorker.js')),
    },
  };
  for (const file of result.outputFiles)
    files[file.path.replace(/^\/page/, '')] = { type: 'text/javascript', body: file.contents };
  if (!Object.keys(files).some((path) => /generate-items/.test(path)))
    throw new Error('Faker was not split into a chunk');
  return files;
}

describe.skipIf(skipWithoutBrowser)(browserSuite('the MSW handlers in headless Chromium'), () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof serveFiles>>;
  const seen = new Map<string, { status: number; body: string }>();
  const outsideRequests: string[] = [];
  const loaded: string[] = [];

  beforeAll(async () => {
    site = await serveFiles(await bundlePage());
    browser = await launchChromium();
    const page = await browser.newPage();
    page.on('request', (request) => {
      loaded.push(request.url());
      if (!request.url().startsWith(site.origin)) outsideRequests.push(request.url());
    });
    const errors = pageErrors(page);
    await page.goto(site.origin);
    await page.waitForSelector('body[data-done="true"]', { timeout: 90_000 }).catch(() => {
      throw new Error(`the page did not finish: ${errors.join('; ') || 'no page error'}`);
    });
    for (const item of await page.locator('#output li').all()) {
      seen.set((await item.getAttribute('data-step')) ?? '', JSON.parse((await item.textContent()) ?? '{}'));
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('lists the scenario’s pets', () => {
    expect(seen.get('list')?.status).toBe(200);
    expect(JSON.parse(seen.get('list')?.body ?? '[]')).toHaveLength(3);
  });

  it('creates a pet and reads it back byte for byte, id beyond 2^53 included', () => {
    const pet = '{"id":4,"name":"Zoë 🐱","categoryId":9007199254740993,"status":"sold"}';
    expect(seen.get('create')).toEqual({ status: 201, body: pet });
    expect(seen.get('read')).toEqual({ status: 200, body: pet });
  });

  it('gets a 400 Error body naming the missing field', () => {
    expect(seen.get('invalid')?.status).toBe(400);
    expect(JSON.parse(seen.get('invalid')?.body ?? '{}')).toMatchObject({
      code: 'invalid_body',
      message: "body field 'categoryId' is required",
      status: 400,
    });
  });

  it('gets a 401 Error body without a key', () => {
    expect(seen.get('unauthorized')?.status).toBe(401);
    expect(JSON.parse(seen.get('unauthorized')?.body ?? '{}')).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('compiles a document of the page’s own at run time with the run-time compiler, where eval is allowed', () => {
    expect(seen.get('own-list')?.status).toBe(200);
    expect(JSON.parse(seen.get('own-list')?.body ?? '[]')).toHaveLength(3);
    expect(seen.get('own-invalid')?.status).toBe(400);
    expect(JSON.parse(seen.get('own-invalid')?.body ?? '{}')).toMatchObject({ code: 'invalid_body' });
  });

  it('never loads Faker for a scenario of literal pets (its chunk exists, and stays unloaded)', () => {
    expect(loaded.some((url) => url.endsWith('/page.js'))).toBe(true);
    expect(loaded.filter((url) => /generate-items/.test(url))).toEqual([]);
  });

  it('fetches nothing from outside the machine', () => {
    expect(outsideRequests).toEqual([]);
  });
});
