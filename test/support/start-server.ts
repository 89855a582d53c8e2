import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import { createNodeMock, type NodeMockOptions } from '../../src/node/create-node-mock.js';
import { createServer, type ServerLimits } from '../../src/node/create-server.js';
import { createNodeListener } from '../../src/node/node-listener.js';

export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Listens on an ephemeral port of 127.0.0.1 with the server the CLI uses (the
 * same limits, or `limits` to shorten them); `close()` stops it and its connections.
 */
export async function startServer(app: RequestListener, limits: ServerLimits = {}): Promise<RunningServer> {
  const server = createServer(app, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts the mock with test defaults (key `test-key`, the default scenario, seed 1). */
export async function startMock(options: NodeMockOptions = {}): Promise<RunningServer> {
  return startServer(createNodeListener(createNodeMock({ keys: ['test-key'], ...options })));
}

export const auth = { Authorization: 'Bearer test-key' };
export const jsonAuth = { ...auth, 'Content-Type': 'application/json' };

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** fetch, with the body read as text and parsed as JSON when it is JSON. */
export async function request<T = unknown>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: body as T };
}
