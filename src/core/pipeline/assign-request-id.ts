import { headerValue, type PlainRequest } from '../http/plain-http.js';

const saneId = /^[\w.:-]{1,128}$/;

/** The request's id: a sane `X-Request-Id` it sent, or a new UUID. Echoed on the response, logged, journalled. */
export function assignRequestId(request: PlainRequest): string {
  const sent = headerValue(request, 'x-request-id');
  return sent !== undefined && saneId.test(sent) ? sent : newUuid();
}

/** Random bytes for 256 ids, drawn at once from the platform's cryptographic source, and where the next id starts. */
const pool = new Uint8Array(16 * 256);
let next = pool.length;
/** The character codes of an id being written, reused: `String.fromCharCode` makes one flat string of them. */
const codes: number[] = new Array<number>(36).fill(0);
/** The two lower-case hex digits of each byte value, as character codes. */
const hexCodes = new Uint8Array(512);
for (let value = 0; value < 256; value++) {
  const digits = value.toString(16).padStart(2, '0');
  hexCodes[2 * value] = digits.charCodeAt(0);
  hexCodes[2 * value + 1] = digits.charCodeAt(1);
}
const dash = 45;

/**
 * A version 4 UUID (RFC 9562 §5.4: 122 random bits), as `crypto.randomUUID()`
 * makes one, written in one string. Every request without a sane id of its
 * own gets one; `randomUUID` builds each id from twenty joined strings,
 * which cost the proxy more than the whole of its memos, measured under load.
 */
function newUuid(): string {
  if (next === pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  const start = next;
  next += 16;
  pool[start + 6] = ((pool[start + 6] as number) & 0x0f) | 0x40;
  pool[start + 8] = ((pool[start + 8] as number) & 0x3f) | 0x80;
  let at = 0;
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) codes[at++] = dash;
    const value = pool[start + index] as number;
    codes[at++] = hexCodes[2 * value] as number;
    codes[at++] = hexCodes[2 * value + 1] as number;
  }
  return String.fromCharCode.apply(null, codes);
}
