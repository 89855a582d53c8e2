import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/pipeline/response-cache.js';

describe('ResponseCache', () => {
  it('serialises a result once and returns the same bytes under its key', () => {
    const cache = new ResponseCache();
    const stored = cache.remember('k', { status: 200, body: [{ id: 1 }] });
    expect(stored.payload?.toString()).toBe('[{"id":1}]');
    expect(cache.get('k')).toBe(stored);
    expect(cache.get('other')).toBeUndefined();
  });

  it('keeps a body-less result without a payload', () => {
    const cache = new ResponseCache();
    expect(cache.remember('k', { status: 204 }).payload).toBeUndefined();
  });

  it('never holds more than its capacity', () => {
    const cache = new ResponseCache(3);
    for (let index = 0; index < 10; index++) cache.remember(`k${index}`, { status: 200, body: index });
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.get('k9')?.payload?.toString()).toBe('9');
  });
});
