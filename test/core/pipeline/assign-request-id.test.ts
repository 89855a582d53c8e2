import { describe, expect, it } from 'vitest';
import { assignRequestId, prepareRequestIds } from '../../../src/core/pipeline/assign-request-id.js';

const withId = (id: string | string[] | undefined) =>
  assignRequestId({ method: 'GET', path: '/', query: '', headers: id === undefined ? {} : { 'x-request-id': id } });
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('assignRequestId', () => {
  it.each(['abc-123', 'trace.span:7', 'A_b', 'x'.repeat(128)])('keeps the sane id %j the client sent', (id) => {
    expect(withId(id)).toBe(id);
  });

  it.each(['', 'x'.repeat(129), 'two words', '<script>', 'é', 'a\nb'])('makes a UUID up instead of %j', (id) => {
    expect(withId(id)).toMatch(uuid);
  });

  it('makes a new UUID for each request without one', () => {
    const ids = new Set(Array.from({ length: 20 }, () => withId(undefined)));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(uuid);
  });

  it('keeps making distinct version 4 UUIDs, random in every position but the version and variant, beyond one draw of random bytes', () => {
    // 1,000 ids take the pool of random bytes (256 ids) four times over.
    const ids = Array.from({ length: 1000 }, () => withId(undefined));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(uuid);
    const digits = ids.map((id) => id.replaceAll('-', ''));
    for (let position = 0; position < 32; position++) {
      const seen = new Set(digits.map((hex) => hex[position]));
      // The version digit is always 4; the variant digit one of 8, 9, a, b; any other takes all 16 values in 1,000 ids.
      expect(seen.size, `hex digit ${position}`).toBe(position === 12 ? 1 : position === 16 ? 4 : 16);
    }
  });

  it('hands the ids written ahead (when a mock is made) to the requests that follow, each once', () => {
    prepareRequestIds();
    prepareRequestIds();
    const ids = Array.from({ length: 300 }, () => withId(undefined));
    expect(new Set(ids).size).toBe(300);
    for (const id of ids) expect(id).toMatch(uuid);
  });

  it('reads a header sent twice as one value, which is then no sane id', () => {
    expect(withId(['a', 'b'])).toMatch(uuid);
  });
});
