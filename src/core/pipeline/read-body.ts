import { HttpError } from '../errors/http-error.js';
import type { PlainRequest } from '../http/plain-http.js';

/**
 * The body bytes as sent, refused with `413` above `limit` (the adapter's
 * reader stops reading there, so an over-size body is never buffered whole).
 * This is the only problem with a body answered before authentication.
 */
export async function readBody(request: PlainRequest, limit: number): Promise<Uint8Array | undefined> {
  const { body } = request;
  if (body === undefined) return undefined;
  if (!(body instanceof Uint8Array)) return body(limit);
  if (body.length > limit) throw tooLarge(limit);
  return body;
}

export function tooLarge(limit: number): HttpError {
  return new HttpError('payload_too_large', `the body is larger than the limit of ${limit} bytes`);
}
