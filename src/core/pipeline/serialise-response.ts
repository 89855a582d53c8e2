import type { HandlerResponse } from '../types/handler-response.js';
import { stringifyJson } from '../json/exact-json.js';

/** A handler's response as bytes, with the headers that describe them; what the cache keeps. */
export interface SerialisedResponse {
  status: number;
  /** Lower-case names: the handler's own, plus content-type and content-length when there is a body. */
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /**
   * The headers it is sent with, apart from those of each request (its id,
   * CORS): set by the pipeline the first time, so that a cached response
   * does not build them again.
   */
  sentHeaders?: Record<string, string>;
}

const encoder = new TextEncoder();

/**
 * Writes the body as JSON, numbers exactly (bigints beyond 2^53 included),
 * sent as `application/json` with no charset parameter (JSON is UTF-8 by
 * definition).
 */
export function serialiseResponse(response: HandlerResponse): SerialisedResponse {
  const headers: Record<string, string> = {};
  if (response.headers)
    for (const name in response.headers) headers[name.toLowerCase()] = response.headers[name] as string;
  if (response.body === undefined) return { status: response.status, headers, body: undefined };
  const body = encoder.encode(stringifyJson(response.body));
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(body.length);
  return { status: response.status, headers, body };
}
