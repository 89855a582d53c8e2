import { headerValue, type PlainRequest, type PlainResponse } from '../http/plain-http.js';

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

/** A header list a preflight may ask for: tokens separated by commas (RFC 9110 field names). */
const headerList = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * CORS for any origin, credentials included: the origin is reflected (never
 * `*`, which browsers refuse with credentials) with `Vary: Origin`. A
 * request without `Origin` is not cross-origin and gets no CORS headers
 * (every response is `no-store`, so no cache hands such a response to a
 * cross-origin caller). Returns undefined when there is no Origin.
 */
export function corsHeaders(request: PlainRequest): Record<string, string> | undefined {
  const origin = headerValue(request, 'origin');
  if (origin === undefined) return undefined;
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': exposedHeaders,
    vary: 'Origin',
  };
}

/**
 * The answer to a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`), given before authentication, as browsers
 * send no credentials with it. It allows the method asked for and every
 * header the browser asks for (`Access-Control-Request-Headers`); the actual
 * request is then judged like any other.
 */
export function preflightResponse(request: PlainRequest, cors: Record<string, string>): PlainResponse | undefined {
  const method = headerValue(request, 'access-control-request-method');
  if (request.method !== 'OPTIONS' || method === undefined) return undefined;
  const asked = headerValue(request, 'access-control-request-headers')?.trim();
  const headers: Record<string, string> = {
    ...cors,
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'access-control-max-age': '600',
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    'content-length': '0',
  };
  if (asked && headerList.test(asked)) headers['access-control-allow-headers'] = asked;
  return { status: 204, headers };
}
