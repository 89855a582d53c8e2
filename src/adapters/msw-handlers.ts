import type { HttpHandler } from 'msw';
import { adminBasePath, defaultBasePath } from '../core/create-mock-core.js';
import type { PlainRequest } from '../core/http/plain-http.js';
import { createMock, type Mock, type MockOptions } from '../create-mock.js';
import { fetchResponse, toPlainRequest } from './fetch-adapter.js';
import { mswHttp } from './msw-http.js';

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

/** The page origin of a DOM that runs inside Node (jsdom, happy-dom), if the code runs in one. */
function domInNodeOrigin(): string | undefined {
  const scope = globalThis as { location?: { origin?: unknown }; process?: { versions?: { node?: unknown } } };
  if (typeof scope.process?.versions?.node !== 'string') return undefined;
  const origin = scope.location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

/**
 * A CORS preflight as a DOM in Node meant it. happy-dom checks CORS: before
 * a cross-origin request it sends `OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`. MSW 3 hands the handlers that request
 * rebuilt with the DOM's own `Request`, which drops the headers the Fetch
 * standard forbids a page to set, those two among them; the mock would
 * answer a bare `OPTIONS` 405, and happy-dom block every request of the
 * test. An `OPTIONS` without either header, in a DOM inside Node, is taken
 * as that preflight from the DOM's page (MSW 2 answers before happy-dom
 * checks anything, so it never gets here).
 */
function restoreDomPreflight(request: PlainRequest): PlainRequest {
  if (request.method !== 'OPTIONS' || request.headers.origin !== undefined) return request;
  if (request.headers['access-control-request-method'] !== undefined) return request;
  const origin = domInNodeOrigin();
  if (origin === undefined) return request;
  // The method the request is for is gone too: any the mock allows answers the same list of them.
  return { ...request, headers: { ...request.headers, origin, 'access-control-request-method': 'GET' } };
}

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The origin part of the handlers' patterns: the one given; for a base given
 * as a path, the page's own origin in a browser (as MSW resolves a path
 * against `location`), and any origin elsewhere, where a path alone would
 * match the DOM's made-up page at best (`http://localhost:3000` in vitest's
 * jsdom and happy-dom).
 */
function originPattern(origin: string): string {
  const page = inBrowserPage() ? (globalThis as unknown as { location: { origin: string } }).location.origin : '*';
  const given = origin === '' ? page : origin;
  // Any scheme and authority; a given origin as the URL MSW matches spells it (lower case, no default port).
  return given === '*' ? '[a-z][a-z0-9+.-]*://[^/?#]+' : escapeRegExp(new URL(given).origin);
}

/**
 * The URLs at `path` and below it on `origin`, as a regular expression: MSW 2
 * and 3 match one against the URL without its query, the same way. A glob
 * such as `*\/v1/*` would also match `/api/v1/pets`, and a handler that then
 * declines it leaves the request to go out to the network, where
 * `onUnhandledRequest` (MSW 2) or `onUnhandledFrame` (MSW 3) should have had
 * the say; a handler that does not match leaves it to them.
 */
function urlsUnder(origin: string, path: string): RegExp {
  return new RegExp(`^${originPattern(origin)}${escapeRegExp(path)}(?:/.*)?$`);
}

/**
 * MSW handlers (MSW 2 or 3, one build for both) that answer with the mock:
 * the same store, validation, Error bodies, `Prefer` and deprecation headers
 * as the mock over HTTP. For `setupServer(...createMockHandlers())` in Node
 * and `setupWorker(...)` in a browser. Each call has its own store unless a
 * `mock` is passed. An injected network fault becomes `Response.error()`.
 */
export function createMockHandlers(options: MockHandlersOptions = {}): MockHandlers {
  const { baseUrl = defaultBasePath, mock: given, ...mockOptions } = options;
  const split = splitBaseUrl(baseUrl);
  const { basePath } = split;
  if (basePath === '') throw new TypeError(`baseUrl must include the API's path, such as '/v1', got '${baseUrl}'`);
  const mock = given ?? createMock({ ...mockOptions, basePath });
  const answer = async ({ request }: { request: Request }) => {
    // handleNow: the answer itself where the core has it at once, awaited here with no promise of its own between.
    const response = await mock.handleNow(restoreDomPreflight(toPlainRequest(request)));
    if (response.fault) return mswHttp.Response.error();
    return fetchResponse(mswHttp.Response, response);
  };
  const handlers = [
    mswHttp.http.all(urlsUnder(split.origin, basePath), answer),
    mswHttp.http.all(urlsUnder(split.origin, adminBasePath), answer),
  ];
  return Object.assign(handlers, { mock });
}
