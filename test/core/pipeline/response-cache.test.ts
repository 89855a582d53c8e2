import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../src/core/pipeline/response-cache.js';
import { serialiseResponse } from '../../../src/core/pipeline/serialise-response.js';

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

describe('ResponseCache', () => {
  it('returns what was remembered under its key, the same object', () => {
    const cache = new ResponseCache();
    const stored = serialiseResponse({ status: 200, body: [{ id: 1 }] });
    cache.remember('k', stored);
    expect(cache.get('k')).toBe(stored);
    expect(cache.get('other')).toBeUndefined();
  });

  it('never holds more than its capacity', () => {
    const cache = new ResponseCache(3);
    for (let index = 0; index < 10; index++)
      cache.remember(`k${index}`, serialiseResponse({ status: 200, body: index }));
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(text(cache.get('k9')?.body)).toBe('9');
  });
});
