import { HttpError } from '../errors/http-error.js';
import { errorBody } from '../errors/to-error-response.js';
import { headerValue, oneValue, type PlainRequest, type PlainResponse } from '../http/plain-http.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { sessionHeader } from '../http/session-header.js';
import { canonicalHostName, isLoopbackName } from './check-host.js';

/**
 * Which pages may call the mock from a browser. `any` is the in-process
 * default (`createMock`, MSW, the Express middleware: the app's own dev
 * server or test owns the origin): every origin is reflected, with
 * credentials. `loopback` is the default of the mock and the proxy over
 * HTTP: pages on a loopback origin (`http://localhost:5173`,
 * `http://127.0.0.1:*`, `http://[::1]:*`, http or https, any port), the
 * mock's own pages, and the origins in `allowed`; any other origin is
 * refused with `403 origin_not_allowed`, preflights included. Either way, a
 * preflight from an allowed origin allows the headers it asks for, within
 * bounds (see `preflightResponse`); under `loopback` it also lists the
 * methods and headers the documents use.
 */
export interface CorsOptions {
  origins: 'any' | 'loopback';
  /**
   * Exact origins allowed besides (`https://app.example.com`), with
   * credentials; `*` allows every other origin too, without credentials
   * (`Access-Control-Allow-Origin: *`). `null` cannot be listed.
   */
  allowed?: readonly string[];
}

/** The policy the pipeline applies: options checked once, at start-up. */
export interface CorsPolicy {
  /** Every origin is reflected (`origins: 'any'`). */
  any: boolean;
  /** The origins allowed besides loopback ones and the mock's own, in canonical form. */
  origins: ReadonlySet<string>;
  /** Any other origin too (`*`), without credentials. */
  wildcard: boolean;
  /** What a preflight allows besides what it asks for: derived from the documents on the first preflight. */
  allows(): { methods: string; headers: string };
  /**
   * The origin allowed last, the `Host` it came with, and its headers: a page
   * sends the same two with every request, and reading an origin as a URL
   * costs most of what a read of the API does.
   */
  recent?: AllowedOrigin;
}

/** An origin the policy allowed, with the `Host` it was allowed with (its own origin is judged by it), and its headers. */
interface AllowedOrigin {
  origin: string;
  host: string | undefined;
  headers: Readonly<Record<string, string>>;
}

/** Response headers a browser script may read (the rest are hidden from it by CORS). */
const exposedHeaders = [
  'Deprecation',
  'Sunset',
  'Link',
  'WWW-Authenticate',
  'Allow',
  'Preference-Applied',
  'X-Request-Id',
  'Petstore-Violations',
].join(', ');

/**
 * Request headers the pipeline reads whatever the document says: the body's
 * `Content-Encoding` (decode-body.ts), `Prefer` (read-preference.ts), the
 * session (session-registry.ts) and the request id (assign-request-id.ts).
 */
const pipelineHeaders = ['Content-Encoding', 'Prefer', sessionHeader, 'X-Request-Id'];

/** A header list a preflight may ask for: tokens separated by commas (RFC 9110 field names). */
const headerList = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * The most headers one preflight may ask for, and the longest list it may
 * send (`Access-Control-Request-Headers`), in characters. A page's fetch
 * carries a handful (`authorization`, `content-type`, tracing's
 * `sentry-trace`, `baggage` and `traceparent`, an `x-request-id`); the
 * bounds keep what the mock echoes back small whatever a client sends.
 */
export const maxPreflightHeaders = 64;
export const maxPreflightHeaderChars = 2048;

/**
 * An origin as browsers send it (`https://app.example.com`, a port only when
 * it is not the scheme's default), or undefined for anything else: another
 * scheme, a path, a query, credentials. A trailing `/` is dropped.
 */
export function canonicalOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '/' || !/^[a-z]+:\/\/[^/?#]+\/?$/i.test(text)) return undefined;
  return url.origin;
}

/**
 * The policy of the options: throws `TypeError` naming an allowed origin
 * that is not one. `documents` are read on the first preflight only (the
 * admin API's is compiled on first use).
 */
export function createCorsPolicy(
  options: CorsOptions | undefined,
  documents: () => readonly CompiledDocument[],
): CorsPolicy {
  const origins = new Set<string>();
  let wildcard = false;
  for (const given of options?.allowed ?? []) {
    if (given === '*') {
      wildcard = true;
      continue;
    }
    const origin = canonicalOrigin(given);
    if (origin === undefined) {
      throw new TypeError(
        `an allowed origin must be a scheme, a host and an optional port, such as https://app.example.com, or *; got ${JSON.stringify(given)}`,
      );
    }
    origins.add(origin);
  }
  let allowed: { methods: string; headers: string } | undefined;
  return {
    any: (options?.origins ?? 'any') === 'any',
    origins,
    wildcard,
    allows: () => (allowed ??= requestsOf(documents())),
  };
}

/**
 * The methods and request headers the documents use: each operation's
 * method, its header parameters, `Content-Type` when it takes a body, the
 * header each security scheme reads (`Authorization` for http, oauth2 and
 * openIdConnect; an apiKey's own name), and what the pipeline reads.
 */
export function requestsOf(documents: readonly CompiledDocument[]): { methods: string; headers: string } {
  const methods = new Set<string>();
  const headers = new Map<string, string>();
  const add = (name: string): void => {
    if (!headers.has(name.toLowerCase())) headers.set(name.toLowerCase(), name);
  };
  for (const { document, operations } of documents) {
    for (const scheme of Object.values(document.components?.securitySchemes ?? {})) {
      if ('$ref' in scheme) continue;
      if (scheme.type === 'apiKey') {
        if (scheme.in === 'header') add(scheme.name);
      } else add('Authorization');
    }
    for (const operation of operations) {
      methods.add(operation.method);
      if (operation.requestBody) add('Content-Type');
      for (const parameter of operation.parameters) if (parameter.in === 'header') add(parameter.name);
    }
  }
  for (const name of pipelineHeaders) add(name);
  return { methods: [...methods].join(', '), headers: [...headers.values()].join(', ') };
}

/** Whether the origin is the mock's own: the page was served under the name and port the request is sent to. */
function isOwnOrigin(origin: URL, host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = canonicalHostName(host);
  const port = /:(\d+)$/.exec(host.replace(/^\[.*\]/, ''))?.[1];
  const defaultPort = origin.protocol === 'https:' ? '443' : '80';
  return name === origin.hostname && Number(port ?? defaultPort) === Number(origin.port || defaultPort);
}

/** How a refused origin is shown in a message: quoted, and short. */
function shown(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/**
 * The CORS headers of a request with `Origin`, or undefined without one (it
 * is not cross-origin; every response is `no-store`, so no cache hands such
 * a response to a cross-origin caller). An allowed origin is reflected,
 * never `*`, with credentials and `Vary: Origin`; under `*`, another origin
 * gets `*` without credentials. An origin the policy does not allow (`null`
 * included) throws `403 origin_not_allowed`: "simple" requests (a form
 * POST, a GET) reach the server without a preflight, so refusing to let a
 * script read the answer is not enough, the request must change nothing.
 */
export function corsHeaders(policy: CorsPolicy, request: PlainRequest): Readonly<Record<string, string>> | undefined {
  const origin = oneValue(request.headers.origin);
  // A request without an Origin (no browser's, or a same-origin GET) compiles and runs only this much.
  if (origin === undefined) return undefined;
  return headersOfOrigin(policy, request, origin);
}

/** The CORS headers of a request with `Origin` (see `corsHeaders`): the last allowed origin's, or judged now. */
function headersOfOrigin(policy: CorsPolicy, request: PlainRequest, origin: string): Readonly<Record<string, string>> {
  const host = oneValue(request.headers.host);
  const recent = policy.recent;
  if (recent !== undefined && recent.origin === origin && recent.host === host) return recent.headers;
  const headers = Object.freeze(originHeaders(policy, origin, host));
  // Only an allowed origin is remembered (a refused one threw): the same two headers get the same answer.
  policy.recent = { origin, host, headers };
  return headers;
}

/** The CORS headers of a request from `origin`, or the refusal of an origin the policy does not allow. */
function originHeaders(policy: CorsPolicy, origin: string, host: string | undefined): Record<string, string> {
  const reflected = {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': exposedHeaders,
    vary: 'Origin',
  };
  if (policy.any) return reflected;
  const canonical = canonicalOrigin(origin);
  // Compared as sent: a browser sends the canonical form, and `http://x@localhost` is not `http://localhost`.
  if (canonical !== undefined && canonical === origin) {
    const url = new URL(origin);
    if (isLoopbackName(url.hostname) || policy.origins.has(origin) || isOwnOrigin(url, host)) {
      return reflected;
    }
  }
  if (policy.wildcard) {
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposedHeaders, vary: 'Origin' };
  }
  throw new HttpError(
    'origin_not_allowed',
    `a page of the origin ${shown(origin)} may not call the mock: it answers pages on loopback origins (http://localhost:5173) and its own; allow another origin with --cors-origin ORIGIN`,
  );
}

/**
 * The headers a preflight asks for, as a list to allow: empty when it asks
 * for none, or for a list that is not one (a browser never sends that), and
 * a `431 headers_too_large` Error beyond `maxPreflightHeaders` names or
 * `maxPreflightHeaderChars` characters.
 */
function askedHeaders(request: PlainRequest): { list: string; names: string[] } | undefined {
  const asked = headerValue(request, 'access-control-request-headers')?.trim();
  if (!asked) return undefined;
  if (asked.length > maxPreflightHeaderChars) {
    throw new HttpError(
      'headers_too_large',
      `a preflight may ask for at most ${maxPreflightHeaderChars} characters of headers (Access-Control-Request-Headers), this one ${asked.length}`,
    );
  }
  if (!headerList.test(asked)) return undefined;
  const names = asked.split(',').map((name) => name.trim());
  if (names.length > maxPreflightHeaders) {
    throw new HttpError(
      'headers_too_large',
      `a preflight may ask for at most ${maxPreflightHeaders} headers (Access-Control-Request-Headers), this one ${names.length}`,
    );
  }
  return { list: asked, names };
}

/** The documents' headers, then those asked for besides (compared without case), once each. */
function mergeHeaders(documented: string, asked: readonly string[]): string {
  const names = new Map<string, string>();
  for (const name of documented === '' ? [] : documented.split(', ')) names.set(name.toLowerCase(), name);
  for (const name of asked) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  return [...names.values()].join(', ');
}

/**
 * The answer to a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) from an allowed origin, given before
 * authentication, as browsers send no credentials with it. It allows the
 * headers the browser asks for, as long as they are at most
 * `maxPreflightHeaders` names in `maxPreflightHeaderChars` characters (more
 * is answered `431 headers_too_large`, which the browser takes as a
 * refusal): the origin is the boundary, and a page the policy allows may
 * send what headers it likes (`sentry-trace`, `baggage` and `traceparent`
 * from tracing, a header of the app's own), as the actual request is then
 * judged like any other. Under `loopback` it also lists the methods and
 * headers the documents use, and answers a private-network request
 * (`Access-Control-Request-Private-Network`, Chromium). A refused origin
 * never gets here: `corsHeaders` refused it first.
 */
export function preflightResponse(
  policy: CorsPolicy,
  request: PlainRequest,
  cors: Readonly<Record<string, string>>,
): PlainResponse | undefined {
  const method = headerValue(request, 'access-control-request-method');
  if (request.method !== 'OPTIONS' || method === undefined) return undefined;
  const headers: Record<string, string> = {
    ...cors,
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'access-control-max-age': '600',
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    'content-length': '0',
  };
  let asked: ReturnType<typeof askedHeaders>;
  try {
    asked = askedHeaders(request);
  } catch (error) {
    const body = new TextEncoder().encode(JSON.stringify(errorBody(error as HttpError)));
    return {
      status: (error as HttpError).status,
      headers: {
        ...cors,
        vary: headers.vary as string,
        'content-type': 'application/json',
        'content-length': String(body.length),
      },
      body,
    };
  }
  if (policy.any) {
    if (asked) headers['access-control-allow-headers'] = asked.list;
  } else {
    const allows = policy.allows();
    headers['access-control-allow-methods'] = allows.methods;
    headers['access-control-allow-headers'] = asked ? mergeHeaders(allows.headers, asked.names) : allows.headers;
    if (headerValue(request, 'access-control-request-private-network') === 'true') {
      headers['access-control-allow-private-network'] = 'true';
      headers.vary += ', Access-Control-Request-Private-Network';
    }
  }
  return { status: 204, headers };
}
