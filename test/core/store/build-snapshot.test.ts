import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberLiteral, stringifyJson } from '../../../src/core/json/exact-json.js';
import { buildSnapshot } from '../../../src/core/store/build-snapshot.js';
import {
  absent,
  type CollectionShape,
  type Item,
  type ItemStream,
  jsonBytes,
  valueKey,
  type ValueKey,
} from '../../../src/core/store/item-snapshot.js';

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

  it('indexes, counts and gives back any items as one list of them read field by field would', () => {
    // Ids of every size (negative, around powers of ten, the largest safe integer, bigints beyond), fields in
    // any order or left out, and indexed values of every JSON kind, objects included.
    const anyId = fc.oneof(
      fc.integer({ min: -2_000_000, max: 2_000_000 }),
      fc.constantFrom(0, 9, 10, 99, 100, 999_999_999_999_999, 1e15, 9007199254740991, -9007199254740991),
      fc.bigInt({ min: 9007199254740992n, max: 9223372036854775807n }),
    );
    const anyValue = fc.oneof(
      fc.constantFrom('available', 'pending', 'sold', 'Zoë 🐶', '', null, true, false, 0, -1, 2.5, undefined),
      fc.constantFrom({ name: 'x' }, [1, 2], [], {}),
    );
    const shape: CollectionShape = { ...pets, indexed: ['status', 'tags', 'missing'] };
    const anyItems = fc.uniqueArray(fc.tuple(anyId, fc.shuffledSubarray(['name', 'status', 'tags']), anyValue), {
      selector: ([id]) => BigInt(id),
      maxLength: 40,
    });
    fc.assert(
      fc.property(anyItems, (drawn) => {
        const items: Item[] = drawn.map(([id, fields, value]) =>
          Object.fromEntries([['id', id], ...fields.map((field, at) => [field, at === 0 ? value : `${field} ${at}`])]),
        );
        const held = buildSnapshot(items, shape, 'the test');
        const sorted = [...items].sort((a, b) => (BigInt(a.id as never) < BigInt(b.id as never) ? -1 : 1));
        expect(text(held.all)).toBe(text(sorted));
        expect(held.bytes).toBe(items.reduce((sum, item) => sum + jsonBytes(item), 0));
        for (const field of shape.indexed) {
          const keys = new Set<ValueKey>(sorted.map((item) => valueKey(item[field])));
          for (const key of [...keys, absent, 'lost'] as ValueKey[]) {
            const ids = [...(held.rowsWith(field, key) ?? [])].map((item) => item.id);
            expect(ids).toEqual(sorted.filter((item) => valueKey(item[field]) === key).map((item) => item.id));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  describe('with a stream of items after the given ones', () => {
    /** A stream over a list, counting how often it is read; `complete` is what its `each` answers. */
    const streamOf = (list: readonly Item[], complete = true) => {
      const stream = {
        length: list.length,
        reads: 0,
        lists: 0,
        each(visit: (item: Item) => void) {
          stream.reads++;
          list.forEach((item) => visit({ ...item }));
          return complete;
        },
        toArray() {
          stream.lists++;
          return list;
        },
      };
      return stream satisfies ItemStream;
    };
    const literal: Item[] = [
      { id: 2, name: 'Literal', categoryId: 1 },
      { id: 1, status: 'sold', name: 'First' },
    ];
    const made: Item[] = Array.from({ length: 50 }, (_, index) => ({
      id: index + 3,
      name: `Made ${index % 7}`,
      categoryId: index % 4,
      status: ['available', 'pending', 'sold'][index % 3],
    }));

    it('writes them into the columns as they come, once, giving the snapshot one list would give', () => {
      const stream = streamOf(made);
      const held = buildSnapshot(literal, pets, 'the test', stream);
      const whole = buildSnapshot([...literal, ...made], pets, 'the test');
      expect(text(held.all)).toBe(text(whole.all));
      expect(held.bytes).toBe(whole.bytes);
      expect([...(held.rowsWith('status', 'sold') ?? [])].map((item) => item.id)).toEqual(
        [...(whole.rowsWith('status', 'sold') ?? [])].map((item) => item.id),
      );
      expect(held.get(52)).toEqual(made[49]);
      expect([stream.reads, stream.lists]).toEqual([1, 0]);
    });

    it('keeps the values of an object the stream writes over for each item, a field it lacks left undefined', () => {
      const reused: Record<string, unknown> = {};
      const stream = {
        ...streamOf(made),
        each(visit: (item: Item) => void) {
          made.forEach((item, index) => {
            Object.assign(reused, item, index % 5 === 0 ? { status: undefined } : {});
            visit(reused);
          });
          return true;
        },
      };
      const held = buildSnapshot(literal, pets, 'the test', stream);
      const lacking = made.map((item, index) => (index % 5 === 0 ? { ...item, status: undefined } : item));
      const whole = buildSnapshot([...literal, ...lacking], pets, 'the test');
      expect(text(held.all)).toBe(text(whole.all));
      expect(held.bytes).toBe(whole.bytes);
      expect(Object.hasOwn(held.get(3) as Item, 'status')).toBe(false);
      expect(held.rowsWith('status', absent)).toHaveLength(11);
    });

    it('reads the list instead when the stream says the items it handed out were not the list', () => {
      const changed = made.map((item, index) => (index === 10 ? { ...item, status: 'lost' } : item));
      const stream = { ...streamOf(made, false), toArray: () => changed };
      const held = buildSnapshot(literal, pets, 'the test', stream);
      expect(held.get(13)?.status).toBe('lost');
      expect(held.rowsWith('status', 'lost')).toHaveLength(1);
    });

    it('sorts the items with the others when the stream hands them out of id order', () => {
      const stream = streamOf([...made].reverse());
      const held = buildSnapshot(literal, pets, 'the test', stream);
      expect(text(held.all)).toBe(text(buildSnapshot([...literal, ...made], pets, 'the test').all));
      expect(stream.lists).toBe(1);
    });

    it('refuses an id the stream hands out twice, or one a given item has', () => {
      expect(() => buildSnapshot(literal, pets, "scenario 'twice'", streamOf([made[0]!, made[0]!]))).toThrow(
        "scenario 'twice' has two pets with id 3",
      );
      expect(() => buildSnapshot(literal, pets, "scenario 'twice'", streamOf([{ id: 2 }]))).toThrow(
        "scenario 'twice' has two pets with id 2",
      );
    });

    it('keeps ids beyond 2^53 exactly when the stream brings the first of them', () => {
      const held = buildSnapshot(literal, pets, 'the test', streamOf([{ id: 9007199254740993n }]));
      expect(held.all.id(2)).toBe(9007199254740993n);
      expect(held.get(9007199254740993n)?.id).toBe(9007199254740993n);
      expect(held.get(1)?.name).toBe('First');
    });
  });
});
