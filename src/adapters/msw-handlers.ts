import { http, HttpResponse, type HttpHandler } from 'msw';
import { adminBasePath, defaultBasePath } from '../core/create-mock-core.js';
import { fetchHeaders } from '../core/http/plain-http.js';
import { createMock, type Mock, type MockOptions } from '../create-mock.js';
import { toPlainRequest } from './fetch-adapter.js';

export interface MockHandlersOptions extends Omit<MockOptions, 'basePath'> {
  /**
   * Where the API is mocked: an absolute base address such as
   * `https://api.example.test/v1`, or a path such as `/v1`. A path alone is
   * the page's own origin in a browser, and any origin in Node (where there is
   * no page). Default `/v1`.
   */
  baseUrl?: string;
  /** A mock to serve (shared with whoever else holds it); by default each call creates its own. */
  mock?: Mock;
}

/** MSW request handlers backed by one mock, with that mock (to reset it or read its journal between tests). */
export type MockHandlers = HttpHandler[] & { mock: Mock };

/** Splits a base address into the origin MSW matches (empty for a relative one) and its path. */
function splitBaseUrl(baseUrl: string): { origin: string; basePath: string } {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]+)?(\/.*)?$/i.exec(baseUrl.replace(/\/+$/, ''));
  if (!match) throw new TypeError(`baseUrl must be an absolute URL or a path starting with '/', got '${baseUrl}'`);
  return { origin: match[1] ?? '', basePath: match[2] ?? '' };
}

/**
 * The origin part of MSW's patterns for a base given as a path: none in a
 * browser, where MSW resolves a path against the page (`location`), and `*`
 * (any origin) in Node, where a path alone would match no request at all.
 */
function originOfPath(): string {
  const page = (globalThis as { location?: { origin?: unknown } }).location;
  return typeof page?.origin === 'string' && page.origin !== 'null' ? '' : '*';
}

/** Whether `path` is `base` or below it. */
function isUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * MSW 2 handlers that answer with the mock: the same store, validation, Error
 * bodies, `Prefer` and deprecation headers as the mock over HTTP. For
 * `setupServer(...createMockHandlers())` in Node and `setupWorker(...)` in a
 * browser. Each call has its own store unless a `mock` is passed. A network
 * fault injected through the admin API becomes `HttpResponse.error()`.
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const { baseUrl = defaultBasePath, mock: given, ...mockOptions } = options;
  const split = splitBaseUrl(baseUrl);
  const { basePath } = split;
  if (basePath === '') throw new TypeError(`baseUrl must include the API's path, such as '/v1', got '${baseUrl}'`);
  const origin = split.origin === '' ? originOfPath() : split.origin;
  const mock = given ?? createMock({ ...mockOptions, basePath });
  const answer = async ({ request }: { request: Request }) => {
    const plain = toPlainRequest(request);
    // `*` also matches a longer path that merely contains the base (`/api/v1/...`): that one is not ours.
    if (!isUnder(plain.path, basePath) && !isUnder(plain.path, adminBasePath)) return undefined;
    const response = await mock.handle(plain);
    if (response.fault) return HttpResponse.error();
    const body = response.body && response.body.length > 0 ? response.body : null;
    return new HttpResponse(body as ConstructorParameters<typeof HttpResponse>[0], {
      status: response.status,
      headers: fetchHeaders(response.headers),
    });
  };
  const handlers = [
    http.all(`${origin}${basePath}`, answer),
    http.all(`${origin}${basePath}/*`, answer),
    http.all(`${origin}${adminBasePath}/*`, answer),
  ];
  return Object.assign(handlers, { mock });
}
