import { describe, expect, it } from 'vitest';
import { BoundedMap, BoundedMaps } from '../../../src/core/support/bounded-map.js';

describe('BoundedMap', () => {
  it('forgets the oldest entry beyond its capacity, and counts a key set again as the newest', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect(map.size).toBe(2);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(3);
    expect(map.get('c')).toBe(4);
  });
});

describe('BoundedMaps', () => {
  it('gives each owner a map of its own, the same one each time, each bounded', () => {
    const maps = new BoundedMaps<object, string, number>(1);
    const one = {};
    const two = {};
    maps.of(one).set('k', 1);
    expect(maps.of(one)).toBe(maps.of(one));
    expect(maps.of(two).get('k')).toBeUndefined();
    maps.of(one).set('l', 2);
    expect(maps.of(one).size).toBe(1);
    expect(maps.of(one).get('k')).toBeUndefined();
  });
});
