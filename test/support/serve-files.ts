import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
