import { HttpError } from '../errors/http-error.js';
import type { PlainRequest } from '../http/plain-http.js';

/**
 * The body bytes as sent, refused with `413` above `limit` (the adapter's
 * reader stops reading there, so an over-size body is never buffered whole).
 * This is the only problem with a body answered before authentication.
 * Bytes already read (in-process) are answered at once, and a reader's
 * promise is passed on as it is: no promise of its own wrapped around it,
 * one turn of the microtask queue less a request with a body. Throws the 413
 * of bytes already read; a reader's rejects with it.
 */
export function readBody(
  request: PlainRequest,
  limit: number,
): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  const { body } = request;
  if (body === undefined) return undefined;
  if (!(body instanceof Uint8Array)) return Promise.resolve(body(limit));
  if (body.length > limit) throw tooLarge(limit);
  return body;
}

export function tooLarge(limit: number): HttpError {
  return new HttpError('payload_too_large', `the body is larger than the limit of ${limit} bytes`);
}
