import { describe, expect, it } from 'vitest';
import { assignRequestId } from '../../../src/core/pipeline/assign-request-id.js';

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

  it('reads a header sent twice as one value, which is then no sane id', () => {
    expect(withId(['a', 'b'])).toMatch(uuid);
  });
});
