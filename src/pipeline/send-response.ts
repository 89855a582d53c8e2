import type { ServerResponse } from 'node:http';
import type { HandlerResult } from '../handlers/handler-types.js';

/** Headers every API response carries: no sniffing, no caching of a stateful mock's answers. */
const commonHeaders = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

/**
 * Writes a validated result: `Content-Type: application/json` exactly (JSON is
 * UTF-8 by definition, so no charset parameter), the result's headers, and the
 * body serialised once.
 */
export function sendResponse(res: ServerResponse, result: HandlerResult, extraHeaders: Record<string, string>): void {
  const payload = result.body === undefined ? undefined : Buffer.from(JSON.stringify(result.body), 'utf8');
  res.statusCode = result.status;
  for (const [name, value] of Object.entries({ ...commonHeaders, ...extraHeaders, ...result.headers })) {
    res.setHeader(name, value);
  }
  if (payload) {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', payload.length);
  }
  res.end(payload);
}
