import type { ServerResponse } from 'node:http';
import type { CachedResponse } from './response-cache.js';

/** Headers every API response carries: no sniffing, no caching of a stateful mock's answers. */
const commonHeaders: Array<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-store'],
];

/**
 * Writes a validated, serialised response: `Content-Type: application/json`
 * exactly (JSON is UTF-8 by definition, so no charset parameter), the
 * operation's headers, then the result's own.
 */
export function sendResponse(
  res: ServerResponse,
  response: CachedResponse,
  operationHeaders: ReadonlyArray<[string, string]>,
): void {
  res.statusCode = response.status;
  for (const [name, value] of commonHeaders) res.setHeader(name, value);
  for (const [name, value] of operationHeaders) res.setHeader(name, value);
  if (response.headers) for (const name in response.headers) res.setHeader(name, response.headers[name] as string);
  if (response.payload) {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', response.payload.length);
  }
  res.end(response.payload);
}
