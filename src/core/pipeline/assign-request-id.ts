import { headerValue, type PlainRequest } from '../http/plain-http.js';
import { fillRandomBytes } from '../support/fill-random-bytes.js';

const saneId = /^[\w.:-]{1,128}$/;

/** The request's id: a sane `X-Request-Id` it sent, or a new UUID. Echoed on the response, logged, journalled. */
export function assignRequestId(request: PlainRequest): string {
  const sent = headerValue(request, 'x-request-id');
  return sent !== undefined && saneId.test(sent) ? sent : newUuid();
}

/** Ids written at once: the random bytes for them are drawn in one call, and the ids are written in one warm loop. */
const batchSize = 256;
/** The first batch is small: a process's first request (a test's, the mock's first) does not wait for 256 ids. */
const firstBatchSize = 8;
const pool = new Uint8Array(16 * batchSize);
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
/** The ids written and not yet handed out: `batch[taken]` onwards. */
let batch: string[] = [];
let taken = 0;

/**
 * A version 4 UUID (RFC 9562 §5.4: 122 random bits), as `crypto.randomUUID()`
 * makes one. Every request without a sane id of its own gets one. They are
 * written 256 at a time, in one loop: under load, a request's own call of
 * `randomUUID` (twenty joined strings), or even writing one id, costs the
 * proxy more than the whole of its memos, because between two requests the
 * caches have lost the code and the tables it uses.
 */
function newUuid(): string {
  prepareRequestIds();
  return batch[taken++] as string;
}

/**
 * Writes the next ids if none is left. A mock calls it when it is made, so that a process's first request
 * finds its id written (the first draw from the runtime's random source costs a fraction of a millisecond).
 */
export function prepareRequestIds(): void {
  if (taken === batch.length) {
    batch = writeBatch(batch.length === 0 ? firstBatchSize : batchSize);
    taken = 0;
  }
}

function writeBatch(size: number): string[] {
  fillRandomBytes(size === batchSize ? pool : pool.subarray(0, 16 * size));
  const ids = new Array<string>(size);
  for (let id = 0; id < size; id++) ids[id] = writeUuid(16 * id);
  return ids;
}

/** The UUID of the 16 random bytes at `start` in the pool, its version and variant bits set. */
function writeUuid(start: number): string {
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
