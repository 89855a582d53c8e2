import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { pageErrors, sharedChromium } from './browser.js';
import { type ServedFile, serveFiles } from './serve-files.js';

/** Where esbuild places the page's files, and so their paths on the page's origin. */
const outdir = '/page';

/**
 * A page esbuild bundled (`write: false`, under `outdir`) as files to serve: an HTML page titled `title` that
 * loads `/page.js`, the `mockServiceWorker.js` of the msw in `nodeModules` (what `npx msw init` copies), and
 * each output file under its path.
 */
function bundledPage(
  title: string,
  outputFiles: ReadonlyArray<{ path: string; contents: Uint8Array }>,
  nodeModules: string,
): Record<string, ServedFile> {
  const files: Record<string, ServedFile> = {
    '/': {
      type: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="/page.js"></script>`,
    },
    '/mockServiceWorker.js': {
      type: 'text/javascript',
      body: readFileSync(join(nodeModules, 'msw/lib/mockServiceWorker.js')),
    },
  };
  for (const file of outputFiles)
    files[file.path.slice(outdir.length)] = { type: 'text/javascript', body: file.contents };
  return files;
}

/**
 * Bundles a page's script (`entry`, in `dir`) as a user's bundler would, from the modules `dir` resolves,
 * serves it with the `mockServiceWorker.js` of the msw in `nodeModules`, opens it in headless Chromium and
 * waits for the page to set `data-${attribute}` on its body: that attribute's value. Throws with what the
 * page reported (uncaught errors and console errors) when it never does.
 */
export async function runBundledPage(page: {
  dir: string;
  entry: string;
  title: string;
  nodeModules: string;
  attribute: string;
}): Promise<string> {
  const result = await build({
    absWorkingDir: page.dir,
    entryPoints: [page.entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    outdir,
    entryNames: 'page',
    write: false,
    logLevel: 'silent',
  });
  const site = await serveFiles(bundledPage(page.title, result.outputFiles, page.nodeModules));
  const context = await (await sharedChromium()).newContext();
  try {
    const tab = await context.newPage();
    const errors = pageErrors(tab);
    await tab.goto(site.origin);
    const selector = `body[data-${page.attribute}]`;
    await tab.waitForSelector(selector, { state: 'attached', timeout: 60_000 }).catch(() => {
      throw new Error(`the page ${page.title} did not finish: ${errors.join('; ') || 'no page error'}`);
    });
    return (await tab.getAttribute('body', `data-${page.attribute}`)) ?? '';
  } finally {
    await context.close();
    await site.close();
  }
}
