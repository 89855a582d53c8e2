import { describe, expect, it } from 'vitest';
import { ExplorationModel, type PageQuery } from '../../../src/contract/explore/exploration-model.js';

const widest = (filters: Record<string, string>) => ({ query: { ...filters, limit: '100' }, limit: 100 });
const page = (limit: number, filters: Record<string, string> = {}): PageQuery => ({
  query: { ...filters, limit: String(limit) },
  limit,
  filters,
  widest: widest(filters),
});
const pets = (from: number, count: number, status = 'available') =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `pet ${from + index}`, status }));

function modelWithCreated(status: string): ExplorationModel {
  const model = new ExplorationModel(() => true);
  model.create({ id: 500, name: 'created', status }, 0);
  return model;
}

describe('the exploration model', () => {
  it('suspects a created pet missing from a page shorter than its limit and than a larger page', () => {
    const model = modelWithCreated('sold');
    model.page(page(100, { status: 'available' }), pets(1, 12));
    model.page(page(100), pets(1, 10));
    expect(model.suspects.map((s) => [s.pet.id, s.page.query])).toEqual([[500, { limit: '100' }]]);
  });

  it('does not suspect a page that its limit may have cut, nor the largest page seen (a page cap may have)', () => {
    const model = modelWithCreated('sold');
    model.page(page(100, { status: 'available' }), pets(1, 12));
    model.page(page(12), pets(1, 12));
    model.page(page(100), pets(1, 40));
    expect(model.suspects).toEqual([]);
  });

  it('suspects in hindsight once a larger page shows that no page cap cut an earlier one', () => {
    const model = modelWithCreated('sold');
    model.page(page(100), pets(1, 10));
    expect(model.suspects).toEqual([]);
    expect(model.undecidedPage()).toBe(10);
    model.page(undefined, pets(1, 11));
    expect(model.suspects.map((s) => s.pet.id)).toEqual([500]);
  });

  it('holds a filtered page only to the created pets of that status, as last seen', () => {
    const model = modelWithCreated('available');
    model.page(page(100, { status: 'sold' }), pets(1, 5, 'sold'));
    model.page(undefined, pets(1, 30));
    expect(model.suspects).toEqual([]);
    // Read back with another status (transitions are not shown): the available page need not list it any more.
    model.read({ id: 500, name: 'created', status: 'pending' });
    model.page(page(100, { status: 'available' }), pets(1, 5));
    expect(model.suspects).toEqual([]);
    model.page(page(100, { status: 'pending' }), pets(1, 5, 'pending'));
    expect(model.suspects.map((s) => s.page.filters)).toEqual([{ status: 'pending' }]);
  });

  it('counts a created pet read back, by getPet or in a page, as readable with the fields read', () => {
    const model = modelWithCreated('available');
    expect(model.pending().map((pet) => pet.id)).toEqual([500]);
    model.page(page(100), [{ id: 500, name: 'created', status: 'sold' }]);
    expect(model.pending()).toEqual([]);
    expect(model.created.get('500')?.fields.status).toBe('sold');
  });

  it('proves "an unknown id answers 404" broken only once three ids far from every id seen answered 200', () => {
    const model = new ExplorationModel(() => true);
    expect(model.unknownAnswered(1_000_000_007, { id: 1_000_000_007 })).toBeUndefined();
    expect(model.unknownAnswered(987_654_321_001, { id: 987_654_321_001 })).toBeUndefined();
    expect(model.unknownAnswered(9223372036854771565n, { id: 9223372036854771565n })).toMatchObject({
      rule: 'unknown-pet-404',
      level: 'fail',
      message: expect.stringContaining('1000000007, 987654321001, 9223372036854771565'),
    });
  });

  it('reserves the requests the end of a sequence needs: the widest pages, a read per pending pet', () => {
    const model = new ExplorationModel(() => true, [page(100), page(100, { status: 'sold' })]);
    expect(model.settleCost()).toBe(0);
    model.create({ id: 7, name: 'a', status: 'sold' }, 0);
    expect(model.settleCost()).toBe(3);
    expect(model.pagesToAudit().map((audited) => audited.filters)).toEqual([{}, { status: 'sold' }]);
  });
});
