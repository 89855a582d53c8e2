import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import type { Mock } from '../../src/create-mock.js';
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
export async function startMock(options: NodeMockOptions = {}, limits: ServerLimits = {}): Promise<RunningServer> {
  return startServer(createNodeListener(createNodeMock({ keys: ['test-key'], ...options })), limits);
}

/** In-process mocks by the origin of their made-up base URL: `request()` sends to them through `mock.fetch`. */
const inProcess = new Map<string, Mock>();
let inProcessCount = 0;

export interface InProcessMock extends Omit<RunningServer, 'server'> {
  mock: Mock;
}

/**
 * The mock with test defaults (key `test-key`, the default scenario, seed 1),
 * in-process: no port. Its `baseUrl` is made up (`http://mock-N.test/v1`), and
 * `request()` answers it through `mock.fetch`, so a behaviour test reads the
 * same whether it goes over a socket or not.
 */
export function inProcessMock(options: NodeMockOptions = {}): InProcessMock {
  const mock = createNodeMock({ keys: ['test-key'], ...options });
  const origin = `http://mock-${++inProcessCount}.test`;
  inProcess.set(origin, mock);
  return {
    mock,
    origin,
    baseUrl: `${origin}/v1`,
    close: async () => {
      inProcess.delete(origin);
    },
  };
}

export const auth = { Authorization: 'Bearer test-key' };
export const jsonAuth = { ...auth, 'Content-Type': 'application/json' };

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** fetch, or `mock.fetch` for an in-process mock's URL. */
export function fetchAny(url: string, init: RequestInit = {}): Promise<Response> {
  const mock = inProcess.get(new URL(url).origin);
  return mock ? mock.fetch(new Request(url, init)) : fetch(url, init);
}

/**
 * fetch (or `mock.fetch` for an in-process mock's URL), with the body read as
 * text and parsed as JSON when it is JSON.
 */
export async function request<T = unknown>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const response = await fetchAny(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: body as T };
}
