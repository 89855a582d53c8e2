import { describe, expect, it } from 'vitest';
import { NumberLiteral, stringifyJson } from '../../../src/core/json/exact-json.js';
import { buildSnapshot } from '../../../src/core/store/build-snapshot.js';
import { type CollectionShape, type Item, jsonBytes } from '../../../src/core/store/item-snapshot.js';

const pets: CollectionShape = {
  name: 'pets',
  itemName: 'pet',
  idField: 'id',
  idType: 'integer',
  indexed: ['status'],
};
const labels: CollectionShape = { name: 'labels', itemName: 'label', idField: 'code', idType: 'string', indexed: [] };

const text = (items: Iterable<Item>) => stringifyJson([...items]);

describe('buildSnapshot', () => {
  const given: Item[] = [
    { id: 9223372036854775807n, name: 'Largest', categoryId: -9223372036854775808n, status: 'sold' },
    { id: 2, status: 'pending', name: 'Zoë 🐶', categoryId: 1 },
    { id: 1, name: 'No status', categoryId: 1 },
    { id: 3, name: 'Weighed', categoryId: 9007199254740991, status: 'sold', weight: new NumberLiteral('1.50') },
    { id: 4, name: 'Tagged', categoryId: 2, status: 'available', tags: [{ name: 'x' }], ['__proto__']: 'own' },
  ];
  const snapshot = buildSnapshot(given, pets, 'the test');

  it('gives every item back in id order, field for field and in its own field order, int64 values exactly', () => {
    const sorted = [...given].sort((a, b) => (BigInt(a.id as never) < BigInt(b.id as never) ? -1 : 1));
    expect(text(snapshot.all)).toBe(text(sorted));
    expect(Object.keys(snapshot.get(2) as Item)).toEqual(['id', 'status', 'name', 'categoryId']);
    expect(snapshot.get(9223372036854775807n)?.categoryId).toBe(-9223372036854775808n);
    expect(Object.hasOwn(snapshot.get(4) as Item, '__proto__')).toBe(true);
    expect(Object.hasOwn(snapshot.get(1) as Item, 'status')).toBe(false);
  });

  it('counts the bytes of the items’ JSON exactly as the store’s limits do', () => {
    expect(snapshot.bytes).toBe(given.reduce((sum, item) => sum + jsonBytes(item), 0));
    expect(buildSnapshot([{ id: 1 }], pets, 'the test').bytes).toBe('{"id":1}'.length);
  });

  it('hands out frozen items that a later change to the objects given cannot reach', () => {
    const mine: Record<string, unknown> = { id: 7, name: 'Before', categoryId: 1, status: 'sold' };
    const held = buildSnapshot([mine as Item], pets, 'the test');
    mine.name = 'After';
    expect(held.get(7)?.name).toBe('Before');
    expect(Object.isFrozen(held.get(7))).toBe(true);
  });

  it('finds an item by id, and none for an id it does not hold (1 and 1n are the same id)', () => {
    expect(snapshot.get(1)?.name).toBe('No status');
    expect(snapshot.get(5)).toBeUndefined();
    expect(snapshot.get(9223372036854775806n)).toBeUndefined();
  });

  it('lists the rows of one value of an indexed field in id order, and none of a field without an index', () => {
    expect([...(snapshot.rowsWith('status', 'sold') ?? [])].map((item) => item.id)).toEqual([3, 9223372036854775807n]);
    expect(snapshot.rowsWith('status', 'lost')).toHaveLength(0);
    expect(snapshot.rowsWith('name', 'Weighed')).toBeUndefined();
    const sold = snapshot.rowsWith('status', 'sold');
    expect(sold?.id(1)).toBe(9223372036854775807n);
    expect(sold?.at(-1)?.name).toBe('Largest');
    expect(sold?.slice(0, 1).map((item) => item.name)).toEqual(['Weighed']);
  });

  it('keeps text ids in code-unit order', () => {
    const held = buildSnapshot([{ code: 'b' }, { code: 'B' }, { code: 'a' }], labels, 'the test');
    expect([...held.all].map((item) => item.code)).toEqual(['B', 'a', 'b']);
    expect(held.get('a')).toEqual({ code: 'a' });
  });

  it('refuses an id used twice, naming what holds it', () => {
    expect(() => buildSnapshot([{ id: 1 }, { id: 1 }], pets, "scenario 'twice'")).toThrow(
      "scenario 'twice' has two pets with id 1",
    );
  });

  it('holds a million pets and finds each by id and by state', () => {
    const names = ['Milo', 'Luna', 'Bella', 'Max'];
    const states = ['available', 'pending', 'sold'];
    const many: Item[] = Array.from({ length: 1_000_000 }, (_, index) => ({
      id: index + 1,
      name: names[index % 4],
      categoryId: (index % 5) + 1,
      status: states[index % 3],
    }));
    const held = buildSnapshot(many, pets, 'the test');
    expect(held.all).toHaveLength(1_000_000);
    expect(held.get(1_000_000)).toEqual(many[999_999]);
    expect(held.rowsWith('status', 'pending')).toHaveLength(333_333);
  });
});
