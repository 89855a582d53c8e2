import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/node/load-document.js';
import { packageRoot } from '../../src/package-root.js';
import { precompileValidators } from '../../src/precompile-validators.js';
import { launchChromium, noBrowser, pageErrors } from '../support/browser.js';
import { serveFiles, type ServedFile } from '../support/serve-files.js';

/** What many company apps ship: scripts and workers from the page's own origin only, and no 'unsafe-eval'. */
const strictPolicy = "default-src 'self'; script-src 'self'; worker-src 'self'";

/** A document of the page's own: the kit's, grown by a replace and a delete. */
const ownDocumentPath = join(packageRoot, 'test/evolution/documents/with-replace-and-delete.yaml');

/** The page, bundled as a user's bundler would, with the document's validators (and it) as `precompile` writes them. */
async function bundlePage(): Promise<Record<string, ServedFile>> {
  const virtual: Record<string, string> = {
    'virtual:own-validators': precompileValidators(loadDocument(ownDocumentPath), {
      source: 'with-replace-and-delete.yaml',
    }),
  };
  const result = await build({
    entryPoints: { page: join(packageRoot, 'test/adapters/browser-page/strict-csp-page.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir: '/page',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'virtual-modules',
        setup(bundler) {
          bundler.onResolve({ filter: /^virtual:/ }, (args) => ({ path: args.path, namespace: 'virtual' }));
          bundler.onLoad({ filter: /.*/, namespace: 'virtual' }, (args) => ({
            contents: virtual[args.path],
            loader: 'js',
          }));
        },
      },
    ],
  });
  const csp = { 'content-security-policy': strictPolicy };
  const files: Record<string, ServedFile> = {
    '/': {
      type: 'text/html',
      headers: csp,
      body: '<!doctype html><meta charset="utf-8"><title>petstore-kit under a strict CSP</title><ul id="output"></ul><script type="module" src="/page.js"></script>',
    },
    '/mockServiceWorker.js': {
      type: 'text/javascript',
      headers: csp,
      body: readFileSync(join(packageRoot, 'node_modules/msw/lib/mockServiceWorker.js')),
    },
  };
  for (const file of result.outputFiles)
    files[file.path.replace(/^\/page/, '')] = { type: 'text/javascript', headers: csp, body: file.contents };
  return files;
}

describe.skipIf(noBrowser !== undefined)(
  `the MSW handlers in headless Chromium under Content-Security-Policy: ${strictPolicy}`,
  () => {
    let browser: Browser;
    let site: Awaited<ReturnType<typeof serveFiles>>;
    const seen = new Map<string, unknown>();
    const step = <T>(name: string) => seen.get(name) as T;
    const answer = (name: string) => step<{ status: number; body: string }>(name);

    beforeAll(async () => {
      site = await serveFiles(await bundlePage());
      browser = await launchChromium();
      const page = await browser.newPage();
      const errors = pageErrors(page);
      await page.goto(site.origin);
      await page.waitForSelector('body[data-done="true"]', { timeout: 90_000 }).catch(async () => {
        const shown = await page.locator('#output').innerText();
        throw new Error(`the page did not finish: ${errors.join('; ') || 'no page error'}; it showed: ${shown}`);
      });
      for (const item of await page.locator('#output li').all()) {
        seen.set((await item.getAttribute('data-step')) ?? '', JSON.parse((await item.textContent()) ?? 'null'));
      }
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await site?.close();
    });

    it('is served under a policy that refuses eval, and so refuses compiling validators at run time', () => {
      expect(step('eval')).toBe('EvalError');
      expect(step('run-time-compile')).toMatch(/^DocumentError: .*Evaluating a string as JavaScript/);
      expect(step('deliberate-violations')).toEqual(['script-src eval', 'script-src eval']);
    });

    it('creates the handlers of the kit’s own document, whose validators are built in', () => {
      expect(step('kit-handlers')).toBe('created');
    });

    it('lists, creates, and refuses what the document forbids with Error bodies, as over HTTP', () => {
      expect(answer('kit-list').status).toBe(200);
      expect(JSON.parse(answer('kit-list').body)).toHaveLength(2);
      expect(answer('kit-create').status).toBe(201);
      expect(JSON.parse(answer('kit-create').body)).toMatchObject({ name: 'Zoë', categoryId: 3 });
      expect(answer('kit-invalid').status).toBe(400);
      expect(JSON.parse(answer('kit-invalid').body)).toMatchObject({ code: 'invalid_body', status: 400 });
      expect(answer('kit-beyond-int64').status).toBe(400);
      expect(answer('kit-unauthorized').status).toBe(401);
    });

    it('serves the admin API, its formats checked (date-time) by validators built in too', () => {
      expect(answer('kit-clock').status).toBe(200);
      expect(JSON.parse(answer('kit-clock').body)).toMatchObject({ now: '2030-12-06T10:00:00.000Z' });
      expect(answer('kit-clock-invalid').status).toBe(400);
    });

    it('mocks a document of its own with the validators `petstore-kit precompile` wrote, int64 ids beyond 2^53 included', () => {
      expect(step('own-handlers')).toBe('created');
      expect(JSON.parse(answer('own-list').body)).toHaveLength(2);
      expect(answer('own-replace')).toEqual({
        status: 200,
        body: '{"id":9007199254740993,"name":"Luna","categoryId":9007199254740995,"status":"sold"}',
      });
      expect(answer('own-invalid').status).toBe(400);
      expect(JSON.parse(answer('own-invalid').body)).toMatchObject({ code: 'invalid_body' });
      expect(answer('own-delete').status).toBe(204);
    });

    it('says to precompile a document of its own given without validators, rather than trying eval', () => {
      expect(step('own-without-validators')).toMatch(/^DocumentError: .*npx petstore-kit precompile/);
    });

    it('breaks the policy nowhere once the handlers are made', () => {
      expect(step('violations')).toEqual([]);
    });
  },
);

describe.runIf(noBrowser !== undefined)('the strict-CSP browser test', () => {
  it(`is skipped: ${noBrowser}`, () => {
    expect(noBrowser).toBeDefined();
  });
});
