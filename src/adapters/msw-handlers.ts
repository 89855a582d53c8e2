import { http, HttpResponse, type HttpHandler } from 'msw';
import { adminBasePath, defaultBasePath } from '../core/create-mock-core.js';
import { fetchHeaders } from '../core/http/plain-http.js';
import { createMock, type Mock, type MockOptions } from '../create-mock.js';
import { toPlainRequest } from './fetch-adapter.js';

export interface MockHandlersOptions extends Omit<MockOptions, 'basePath'> {
  /**
   * Where the API is mocked: an absolute base address such as
   * `https://api.example.test/v1`, any origin's path (`*\/v1`), or a path
   * such as `/v1`. A path alone is the page's own origin in a browser, and
   * any origin elsewhere: in Node, and in the DOMs tests run in Node (jsdom,
   * happy-dom), whose `location` is not where the app's API lives. Default `/v1`.
   */
  baseUrl?: string;
  /** A mock to serve (shared with whoever else holds it); by default each call creates its own. */
  mock?: Mock;
}

/** MSW request handlers backed by one mock, with that mock (to reset it or read its journal between tests). */
export type MockHandlers = HttpHandler[] & { mock: Mock };

/** Splits a base address into the origin MSW matches (`*` for any, empty for a relative one) and its path. */
function splitBaseUrl(baseUrl: string): { origin: string; basePath: string } {
  const match = /^(\*|[a-z][a-z0-9+.-]*:\/\/[^/*]+)?(\/[^*]*)?$/i.exec(baseUrl.replace(/\/+$/, ''));
  if (!match) {
    throw new TypeError(
      `baseUrl must be an absolute URL, a path starting with '/', or '*' and a path for any origin, got '${baseUrl}'`,
    );
  }
  return { origin: match[1] ?? '', basePath: match[2] ?? '' };
}

/**
 * Whether the code runs in a browser's page: a `location` with an origin,
 * and no Node process around it. jsdom and happy-dom (vitest's and Jest's
 * DOM environments) give a `location` too, but they run inside Node, where
 * the app's API is whatever origin its client is configured with.
 */
function inBrowserPage(): boolean {
  const scope = globalThis as { location?: { origin?: unknown }; process?: { versions?: { node?: unknown } } };
  if (typeof scope.process?.versions?.node === 'string') return false;
  return typeof scope.location?.origin === 'string' && scope.location.origin !== 'null';
}

/**
 * The origin part of MSW's patterns for a base given as a path: none in a
 * browser, where MSW resolves a path against the page (`location`), and `*`
 * (any origin) elsewhere, where a path alone would match the DOM's made-up
 * page at best (`http://localhost:3000` in vitest's jsdom and happy-dom).
 */
function originOfPath(): string {
  return inBrowserPage() ? '' : '*';
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
