import { headerValue, type PlainRequest } from '../http/plain-http.js';
import type { Inflate } from '../http/inflate.js';

/**
 * Undoes the body's Content-Encoding (`gzip`, `deflate`, ...; a list is
 * undone from the last to the first), after authentication, so that a client
 * without a key learns nothing about its body. The limit holds on the
 * inflated size too, and `take` (a share of the `InflateBudget` every
 * request in flight shares) is charged with every byte inflated. A body with
 * nothing to undo (nearly every one) is answered at once, without a promise.
 */
export function decodeBody(
  request: PlainRequest,
  body: Uint8Array | undefined,
  inflate: Inflate,
  limit: number,
  take?: (bytes: number) => void,
): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  const header = headerValue(request, 'content-encoding');
  if (body === undefined || body.length === 0 || header === undefined) return body;
  return undoEncodings(header, body, inflate, limit, take);
}

/** The encodings a `Content-Encoding` lists, undone from the last to the first. */
async function undoEncodings(
  header: string,
  body: Uint8Array,
  inflate: Inflate,
  limit: number,
  take: ((bytes: number) => void) | undefined,
): Promise<Uint8Array> {
  const encodings = header
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');
  let decoded = body;
  for (const encoding of encodings.reverse()) decoded = await inflate(encoding, decoded, limit, take);
  return decoded;
}
