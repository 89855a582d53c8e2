import { describe, expect, it } from 'vitest';
import { NumberLiteral } from '../../src/core/json/exact-json.js';
import { ItemCache } from '../../src/redis/item-cache.js';

describe('the item cache', () => {
  it('gives the same frozen item for the same stored text, parsed once', () => {
    const cache = new ItemCache();
    const first = cache.item('{"id":1,"name":"Milo"}');
    expect(first).toEqual({ id: 1, name: 'Milo' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(cache.item('{"id":1,"name":"Milo"}')).toBe(first);
    expect(cache.size).toBe(1);
  });

  it('gives a changed item for a changed text (a write stores a new text)', () => {
    const cache = new ItemCache();
    const before = cache.item('{"id":1,"name":"Milo"}');
    const after = cache.item('{"id":1,"name":"Bruno"}');
    expect(after).not.toBe(before);
    expect(after).toEqual({ id: 1, name: 'Bruno' });
  });

  it('keeps int64 ids beyond 2^53 and literal numbers exact, cached or not', () => {
    const cache = new ItemCache();
    const text = '{"id":9223372036854775807,"weight":1.0,"big":99999999999999999999}';
    for (const item of [cache.item(text), cache.item(text)]) {
      expect(item.id).toBe(9223372036854775807n);
      expect(item.weight).toEqual(new NumberLiteral('1.0'));
      expect(String(item.big)).toBe('99999999999999999999');
    }
  });

  it('holds at most its capacity, the oldest text forgotten first', () => {
    const cache = new ItemCache(3);
    const oldest = cache.item('{"id":0}');
    for (let id = 1; id <= 5; id++) cache.item(`{"id":${id}}`);
    expect(cache.size).toBe(3);
    const again = cache.item('{"id":0}');
    expect(again).toEqual(oldest);
    expect(again).not.toBe(oldest);
  });

  it('does not keep a long text, so that large items cannot crowd out the rest', () => {
    const cache = new ItemCache();
    const text = JSON.stringify({ id: 1, name: 'x'.repeat(4096) });
    expect(cache.item(text)).toEqual(JSON.parse(text));
    expect(cache.size).toBe(0);
  });
});
