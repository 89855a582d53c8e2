import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ServedFile {
  type: string;
  body: string | Uint8Array;
  /** More response headers (a Content-Security-Policy). */
  headers?: Record<string, string>;
}

/** Serves fixed files on an ephemeral port of 127.0.0.1 (404 for anything else); `close()` stops it. */
export async function serveFiles(
  files: Record<string, ServedFile>,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { ...file.headers, 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A page esbuild bundled (`write: false`, under `outdir`) as files to serve: an HTML page titled `title` that
 * loads `/${script}`, the `mockServiceWorker.js` of the msw in `nodeModules` (what `npx msw init` copies), and
 * each output file under its path.
 */
export function bundledPage(page: {
  title: string;
  script: string;
  outdir: string;
  outputFiles: ReadonlyArray<{ path: string; contents: Uint8Array }>;
  nodeModules: string;
}): Record<string, ServedFile> {
  const files: Record<string, ServedFile> = {
    '/': {
      type: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>${page.title}</title><script type="module" src="/${page.script}"></script>`,
    },
    '/mockServiceWorker.js': {
      type: 'text/javascript',
      body: readFileSync(join(page.nodeModules, 'msw/lib/mockServiceWorker.js')),
    },
  };
  for (const file of page.outputFiles)
    files[file.path.slice(page.outdir.length)] = { type: 'text/javascript', body: file.contents };
  return files;
}
