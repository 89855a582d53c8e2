import { describe, expect, it } from 'vitest';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { maxRememberedText, ResponseCache } from '../../../src/core/pipeline/response-cache.js';
import { serialiseResponse } from '../../../src/core/pipeline/serialise-response.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

describe('serialiseResponse', () => {
  it('writes the body as JSON, numbers exactly, with its type and length', () => {
    const serialised = serialiseResponse({ status: 200, body: [{ id: 9223372036854775807n, name: 'Zoë' }] });
    expect(text(serialised.body)).toBe('[{"id":9223372036854775807,"name":"Zoë"}]');
    expect(serialised.headers).toEqual({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength('[{"id":9223372036854775807,"name":"Zoë"}]')),
    });
  });

  it('keeps a body-less response without a body or a content type, and lower-cases its headers', () => {
    expect(serialiseResponse({ status: 204, headers: { Allow: 'GET' } })).toEqual({
      status: 204,
      headers: { allow: 'GET' },
      body: undefined,
    });
  });
});

/** Two operations of the kit's document: what an answer was given for. */
const [read, other] = compileDocument(defaultDocument).operations;
if (!read || !other) throw new Error('the kit document has fewer than two operations');
const at = (path: string, query = ''): PlainRequest => ({ method: 'GET', path, query, headers: {} });

describe('ResponseCache', () => {
  it('returns what was remembered for the same operation, revision, path and query, the same object', () => {
    const cache = new ResponseCache();
    const stored = serialiseResponse({ status: 200, body: [{ id: 1 }] });
    cache.remember(read, 7, at('/v1/pets', 'limit=20'), stored);
    expect(cache.get(read, 7, at('/v1/pets', 'limit=20'))).toBe(stored);
  });

  it('holds nothing for another revision, path, query or operation', () => {
    const cache = new ResponseCache();
    cache.remember(read, 7, at('/v1/pets', 'limit=20'), serialiseResponse({ status: 200, body: [] }));
    expect(cache.get(read, 8, at('/v1/pets', 'limit=20'))).toBeUndefined();
    expect(cache.get(read, 7, at('/v1/pets/1', 'limit=20'))).toBeUndefined();
    expect(cache.get(read, 7, at('/v1/pets', 'limit=2'))).toBeUndefined();
    expect(cache.get(read, 7, at('/v1/pets'))).toBeUndefined();
    expect(cache.get(other, 7, at('/v1/pets', 'limit=20'))).toBeUndefined();
  });

  it('keeps the answers of several revisions at once, each its own', () => {
    const cache = new ResponseCache();
    cache.remember(read, 7, at('/v1/pets/1'), serialiseResponse({ status: 200, body: 'seven' }));
    cache.remember(read, 9, at('/v1/pets/1'), serialiseResponse({ status: 200, body: 'nine' }));
    expect(text(cache.get(read, 7, at('/v1/pets/1'))?.body)).toBe('"seven"');
    expect(text(cache.get(read, 9, at('/v1/pets/1'))?.body)).toBe('"nine"');
    expect(cache.size).toBe(2);
  });

  it('never holds more than its capacity, and still holds the answer remembered last', () => {
    const cache = new ResponseCache(3);
    for (let index = 0; index < 10; index++)
      cache.remember(read, index % 2, at(`/v1/pets/${index}`), serialiseResponse({ status: 200, body: index }));
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(text(cache.get(read, 1, at('/v1/pets/9'))?.body)).toBe('9');
    expect(cache.get(read, 0, at('/v1/pets/0'))).toBeUndefined();
  });

  it('remembers no answer for a path and query longer than its bound, and one at the bound', () => {
    const cache = new ResponseCache();
    const path = '/v1/pets/';
    const atBound = at(`${path}${'0'.repeat(maxRememberedText - path.length - 1)}1`);
    const beyond = at(`${path}${'0'.repeat(maxRememberedText - path.length)}1`);
    cache.remember(read, 7, atBound, serialiseResponse({ status: 200, body: 1 }));
    cache.remember(read, 7, beyond, serialiseResponse({ status: 200, body: 1 }));
    expect(cache.get(read, 7, atBound)).toBeDefined();
    expect(cache.get(read, 7, beyond)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('answers a request asked again and the one before it each with its own answer, and no other revision or operation', () => {
    const cache = new ResponseCache();
    const twenty = serialiseResponse({ status: 200, body: 20 });
    const two = serialiseResponse({ status: 200, body: 2 });
    cache.remember(read, 7, at('/v1/pets', 'limit=20'), twenty);
    cache.remember(read, 7, at('/v1/pets', 'limit=2'), two);
    for (let round = 0; round < 2; round++) {
      expect(cache.get(read, 7, at('/v1/pets', 'limit=20'))).toBe(twenty);
      expect(cache.get(read, 7, at('/v1/pets', 'limit=20'))).toBe(twenty);
      expect(cache.get(read, 7, at('/v1/pets', 'limit=2'))).toBe(two);
    }
    expect(cache.get(read, 8, at('/v1/pets', 'limit=2'))).toBeUndefined();
    expect(cache.get(other, 7, at('/v1/pets', 'limit=2'))).toBeUndefined();
    expect(cache.get(read, 7, at('/v1/pets', 'limit=2'))).toBe(two);
  });

  it('forgets the answer it found last when it starts afresh at its capacity', () => {
    const cache = new ResponseCache(1);
    cache.remember(read, 7, at('/v1/pets/1'), serialiseResponse({ status: 200, body: 1 }));
    expect(cache.get(read, 7, at('/v1/pets/1'))).toBeDefined();
    cache.remember(read, 7, at('/v1/pets/2'), serialiseResponse({ status: 200, body: 2 }));
    expect(cache.get(read, 7, at('/v1/pets/1'))).toBeUndefined();
    expect(text(cache.get(read, 7, at('/v1/pets/2'))?.body)).toBe('2');
  });

  it('counts an answer remembered again for the same request once', () => {
    const cache = new ResponseCache();
    for (let index = 0; index < 3; index++)
      cache.remember(read, 7, at('/v1/pets/1'), serialiseResponse({ status: 200, body: index }));
    expect(cache.size).toBe(1);
    expect(text(cache.get(read, 7, at('/v1/pets/1'))?.body)).toBe('2');
  });
});
