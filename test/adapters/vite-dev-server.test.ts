import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { petstoreMiddleware } from '../../src/express.js';

describe('petstoreMiddleware in a Vite dev server (configureServer)', () => {
  let vite: ViteDevServer;
  let origin: string;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'petstore-vite-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>the app</title><h1>the app</h1>');
    vite = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
      plugins: [
        {
          name: 'petstore-mock',
          configureServer(server) {
            server.middlewares.use(petstoreMiddleware({ keys: ['vite-key'], scenario: 'one-of-each-status' }));
          },
        },
      ],
    });
    await vite.listen();
    const address = vite.httpServer?.address() as AddressInfo;
    origin = `http://127.0.0.1:${address.port}`;
  }, 60_000);
  afterAll(async () => {
    await vite?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers the API from the mock', async () => {
    const response = await fetch(`${origin}/v1/pets`, { headers: { Authorization: 'Bearer vite-key' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as Array<{ status: string }>).map((pet) => pet.status)).toEqual([
      'available',
      'pending',
      'sold',
    ]);
  });

  it('leaves everything else to Vite, which still serves the app', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>the app</h1>');
  });
});
