import { describe, expect, it } from 'vitest';
import { ExplorationModel, type PageQuery } from '../../../src/contract/explore/exploration-model.js';
import { describeApi } from '../../../src/core/model/describe-api.js';
import { ReferenceModel } from '../../../src/core/oracle/reference-model.js';
import { compileDocument, type CompiledDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { evolvedDocumentPath } from '../../evolution/support/evolved-documents.js';

const kit = compileDocument(loadDocument(defaultDocumentPath));
const evolved = compileDocument(loadDocument(evolvedDocumentPath('with-replace-and-delete')));

type Pet = { id: number; name: string; status?: string };

/**
 * A sequence's models fed as the exploration feeds them: every exchange goes
 * into the reference model (which knows what was written and seen), and each
 * page into the exploration's model.
 */
function sequence(compiled: CompiledDocument = kit, widest: PageQuery[] = []) {
  const memory = new ReferenceModel({ compiled, settleMs: 1000 });
  const model = new ExplorationModel(memory, () => true, widest);
  const api = describeApi(compiled);
  const list = api.of(compiled.byId.get('listPets') ?? compiled.operations[0]!);
  let now = 0;
  const send = (
    method: string,
    path: string,
    query: Record<string, string>,
    body: unknown,
    status: number,
    answer: unknown,
  ) => {
    const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
    const request = classifyRequest({
      operation,
      pathParams,
      query: new URLSearchParams(query).toString(),
      headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
      body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
    });
    return memory.observe(request, status, answer, (now += 10));
  };
  const page = (limit: number, filters: Record<string, string> = {}): PageQuery => ({
    list,
    query: { ...filters, limit: String(limit) },
    limit,
    filters,
    widest: { query: { ...filters, limit: '100' }, limit: 100 },
  });
  return {
    memory,
    model,
    page,
    create(pet: Pet) {
      const { id: _id, ...body } = pet;
      send('POST', '/pets', {}, { ...body, categoryId: 1 }, 201, { ...pet, categoryId: 1 });
    },
    read(pet: Pet) {
      send('GET', `/pets/${pet.id}`, {}, undefined, 200, { ...pet, categoryId: 1 });
    },
    listed(query: PageQuery | undefined, pets: Pet[]) {
      const asked = query?.query ?? {};
      send(
        'GET',
        '/pets',
        asked,
        undefined,
        200,
        pets.map((pet) => ({ ...pet, categoryId: 1 })),
      );
      model.page(
        query,
        pets.map((pet) => pet.id),
      );
    },
    send,
    at: () => now,
  };
}

const pets = (from: number, count: number, status = 'available'): Pet[] =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `pet ${from + index}`, status }));

describe('the exploration model, on top of the reference model', () => {
  it('suspects a created pet missing from a page shorter than its limit and than a larger page', () => {
    const run = sequence();
    run.create({ id: 500, name: 'created', status: 'sold' });
    run.listed(run.page(100, { status: 'available' }), pets(1, 12));
    run.listed(run.page(100), pets(1, 10));
    expect(run.model.suspects.map((s) => [s.item.id, s.page.query])).toEqual([[500, { limit: '100' }]]);
  });

  it('does not suspect a page that its limit may have cut, nor the largest page seen (a page cap may have)', () => {
    const run = sequence();
    run.create({ id: 500, name: 'created', status: 'sold' });
    run.listed(run.page(100, { status: 'available' }), pets(1, 12));
    run.listed(run.page(12), pets(1, 12));
    run.listed(run.page(100), pets(1, 40));
    expect(run.model.suspects).toEqual([]);
  });

  it('suspects in hindsight once a larger page shows that no page cap cut an earlier one', () => {
    const run = sequence();
    run.create({ id: 500, name: 'created', status: 'sold' });
    run.listed(run.page(100), pets(1, 10));
    expect(run.model.suspects).toEqual([]);
    expect(run.model.undecidedPage()).toBe(10);
    run.listed(undefined, pets(1, 11));
    expect(run.model.suspects.map((s) => s.item.id)).toEqual([500]);
  });

  it('holds a filtered page only to the created pets of that status, as the reference model last saw them', () => {
    const run = sequence();
    run.create({ id: 500, name: 'created', status: 'available' });
    run.listed(run.page(100, { status: 'sold' }), pets(1, 5, 'sold'));
    run.listed(undefined, pets(1, 30));
    expect(run.model.suspects).toEqual([]);
    // Read back with another status (transitions are not shown): the available page need not list it any more.
    run.read({ id: 500, name: 'created', status: 'pending' });
    run.listed(run.page(100, { status: 'available' }), pets(1, 5));
    expect(run.model.suspects).toEqual([]);
    run.listed(run.page(100, { status: 'pending' }), pets(1, 5, 'pending'));
    expect(run.model.suspects.map((s) => s.page.filters)).toEqual([{ status: 'pending' }]);
  });

  it('counts a created pet read back, by getPet or in a page, as no longer pending, with the fields read', () => {
    const run = sequence();
    run.create({ id: 500, name: 'created', status: 'available' });
    expect(run.model.pending().map((item) => item.id)).toEqual([500]);
    run.listed(run.page(100), [{ id: 500, name: 'created', status: 'sold' }]);
    expect(run.model.pending()).toEqual([]);
    expect(run.model.written()[0]?.fields.status).toBe('sold');
  });

  it('knows every id the sequence saw, written or only listed, from the reference model', () => {
    const run = sequence();
    run.listed(undefined, pets(1, 3));
    run.create({ id: 500, name: 'created', status: 'sold' });
    expect(run.model.knownIds(run.memory.api.resources[0]!).sort()).toEqual([1, 2, 3, 500]);
    expect(run.model.written().map((item) => item.id)).toEqual([500]);
  });

  it('keeps a deleted pet pending until a read shows it gone, and no longer expects it in pages', () => {
    const run = sequence(evolved);
    run.create({ id: 500, name: 'created', status: 'sold' });
    run.read({ id: 500, name: 'created', status: 'sold' });
    expect(run.model.pending()).toEqual([]);
    run.send('DELETE', '/pets/500', {}, undefined, 204, undefined);
    expect(run.model.pending().map((item) => [item.id, item.exists, item.writtenBy])).toEqual([
      [500, false, 'deleted'],
    ]);
    expect(run.model.written()).toEqual([]);
    run.listed(run.page(100), pets(1, 10));
    run.listed(undefined, pets(1, 20));
    expect(run.model.suspects).toEqual([]);
    run.send('GET', '/pets/500', {}, undefined, 404, { code: 'pet_not_found', message: 'gone', status: 404 });
    run.model.readGone(run.memory.api.resources[0]!, 500);
    expect(run.model.pending()).toEqual([]);
  });

  it('proves "an unknown id answers 404" broken only once three ids far from every id seen answered 200', () => {
    const run = sequence();
    const read = describeApi(kit).of(kit.byId.get('getPet')!);
    expect(run.model.unknownAnswered(read, 1_000_000_007)).toBeUndefined();
    expect(run.model.unknownAnswered(read, 987_654_321_001)).toBeUndefined();
    expect(run.model.unknownAnswered(read, 9223372036854771565n)).toMatchObject({
      rule: 'unknown-item-404',
      level: 'fail',
      message: expect.stringContaining('getPet answered 200 for 3 ids this sequence never saw'),
    });
  });

  it('reserves the requests the end of a sequence needs: the widest pages, a read per pending pet', () => {
    const empty = sequence();
    const run = sequence(kit, [empty.page(100), empty.page(100, { status: 'sold' })]);
    expect(run.model.settleCost()).toBe(0);
    run.create({ id: 7, name: 'a', status: 'sold' });
    expect(run.model.settleCost()).toBe(3);
    expect(run.model.pagesToAudit().map((audited) => audited.filters)).toEqual([{}, { status: 'sold' }]);
  });
});
