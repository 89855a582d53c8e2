import type { HandlerResponse } from '../types/handler-response.js';
import { encodeText } from '../json/encode-text.js';
import { stringifyJson } from '../json/exact-json.js';
import { encodedItem } from '../store/item-snapshot.js';

/** A handler's response as bytes, with the headers it is sent with; what the cache keeps. */
export interface SerialisedResponse {
  status: number;
  /**
   * Lower-case names: the handler's own, content-type and content-length when
   * there is a body, then the `sentWith` headers (those every answer and its
   * operation carry); not those of each request (its id, CORS).
   */
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /**
   * A remembered answer's headers with a place for each request's id
   * (`x-request-id`, empty here), made when the answer is first reused, which
   * each request that reuses it copies: V8 copies an object with a spread by
   * its layout, at once, about a quarter of the cost of a copy made name by
   * name, and the id set then adds no property (adding one to a spread copy
   * takes V8's slow path).
   */
  reused: Record<string, string> | undefined;
}

/** The answer's headers with a place for each request's id, for the answers that are reused (see `reused`). */
export function withIdPlace(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...headers, 'x-request-id': '' };
}

/**
 * Writes the body as JSON, numbers exactly (bigints beyond 2^53 included),
 * sent as `application/json` with no charset parameter (JSON is UTF-8 by
 * definition), with the handler's headers and `sentWith` in one new object.
 * An item a write has just stored is not written again: the store encoded
 * its JSON to count its bytes, and those bytes are the body.
 */
export function serialiseResponse(
  response: HandlerResponse,
  sentWith: Readonly<Record<string, string>> = {},
): SerialisedResponse {
  const headers: Record<string, string> = {};
  if (response.headers)
    for (const name in response.headers) headers[name.toLowerCase()] = response.headers[name] as string;
  let body: Uint8Array | undefined;
  if (response.body !== undefined) {
    body = encodedItem(response.body) ?? encodeText(stringifyJson(response.body));
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(body.length);
  }
  for (const name in sentWith) headers[name] = sentWith[name] as string;
  return { status: response.status, headers, body, reused: undefined };
}
