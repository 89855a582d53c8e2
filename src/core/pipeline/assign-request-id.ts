import { oneValue, type PlainRequest } from '../http/plain-http.js';
import { fillRandomBytes } from '../support/fill-random-bytes.js';

const saneId = /^[\w.:-]{1,128}$/;

/** The request's id: a sane `X-Request-Id` it sent, or a new UUID. Echoed on the response, logged, journalled. */
export function assignRequestId(request: PlainRequest): string {
  const sent = oneValue(request.headers['x-request-id']);
  return sent !== undefined && saneId.test(sent) ? sent : newUuid();
}

/** Ids written at once: the random bytes for them are drawn in one call, and the ids are written in one warm loop. */
const batchSize = 256;
/** The first batch is small: a process's first request (a test's, the mock's first) does not wait for 256 ids. */
const firstBatchSize = 8;
/** The characters of an id. */
const idLength = 36;
const pool = new Uint8Array(16 * batchSize);
/** The ids of a batch as character codes, one after the other, decoded to one string at once. */
const written = new Uint8Array(idLength * batchSize);
// The dashes are in the same places in every id: written once, for every id a batch holds.
for (let at = 0; at < written.length; at += idLength) {
  for (const place of [8, 13, 18, 23]) written[at + place] = 45;
}
/** Two digits written at once, at any place (a `DataView` writes unaligned). */
const writtenPairs = new DataView(written.buffer);
const ascii = new TextDecoder();
/** The two lower-case hex digits of each byte value, as character codes: the first in the low byte. */
const hexPairs = new Uint16Array(256);
for (let value = 0; value < 256; value++) {
  const digits = value.toString(16).padStart(2, '0');
  hexPairs[value] = digits.charCodeAt(0) | (digits.charCodeAt(1) << 8);
}
/** The ids written and not yet handed out, one after the other: from `taken` (a multiple of 36) to the end. */
let batch = '';
let taken = 0;

/**
 * A version 4 UUID (RFC 9562 §5.4: 122 random bits), as `crypto.randomUUID()`
 * makes one. Every request without a sane id of its own gets one. They are
 * written 256 at a time, in one loop, as bytes decoded to one string; a
 * request takes its 36 characters of it (a slice, which copies nothing).
 * Under load, a request's own call of `randomUUID` (twenty joined strings),
 * or even a string built of 36 character codes for each id, costs more than
 * the rest of the request's id, because between two requests the caches
 * have lost the code and the tables it uses.
 */
function newUuid(): string {
  prepareRequestIds();
  const id = batch.slice(taken, taken + idLength);
  taken += idLength;
  return id;
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

function writeBatch(size: number): string {
  fillRandomBytes(size === batchSize ? pool : pool.subarray(0, 16 * size));
  // The tables in local constants, read once a batch rather than once a digit.
  const random = pool;
  const pairs = writtenPairs;
  const digits = hexPairs;
  for (let id = 0, start = 0, at = 0; id < size; id++, start += 16, at += idLength) {
    // The version (4) and the variant (10xx) of RFC 9562 §5.4.
    random[start + 6] = ((random[start + 6] as number) & 0x0f) | 0x40;
    random[start + 8] = ((random[start + 8] as number) & 0x3f) | 0x80;
    // Each byte as its two digits, in the groups of 8-4-4-4-12 digits between the dashes.
    let index = start;
    for (let place = at; place < at + 8; place += 2) pairs.setUint16(place, digits[random[index++]!]!, true);
    for (let place = at + 9; place < at + 13; place += 2) pairs.setUint16(place, digits[random[index++]!]!, true);
    for (let place = at + 14; place < at + 18; place += 2) pairs.setUint16(place, digits[random[index++]!]!, true);
    for (let place = at + 19; place < at + 23; place += 2) pairs.setUint16(place, digits[random[index++]!]!, true);
    for (let place = at + 24; place < at + 36; place += 2) pairs.setUint16(place, digits[random[index++]!]!, true);
  }
  return ascii.decode(written.subarray(0, idLength * size));
}
