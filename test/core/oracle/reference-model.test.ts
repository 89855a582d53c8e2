import { describe, expect, it } from 'vitest';
import { ReferenceModel } from '../../../src/core/oracle/reference-model.js';
import { compileDocument, type CompiledDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { evolvedDocumentPath } from '../../evolution/support/evolved-documents.js';

const kit = compileDocument(loadDocument(defaultDocumentPath));
const evolved = compileDocument(loadDocument(evolvedDocumentPath('with-replace-and-delete')));

function exchange(compiled: CompiledDocument) {
  return (method: string, path: string, body?: unknown) => {
    const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
    return classifyRequest({
      operation,
      pathParams,
      query: '',
      headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
      body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
    });
  };
}
const request = exchange(kit);
const evolvedRequest = exchange(evolved);

const rulesOf = (findings: ReadonlyArray<{ rule: string; level: string }>) =>
  findings.map((f) => `${f.level} ${f.rule}`);

describe('ReferenceModel', () => {
  const created = { name: 'Rex', categoryId: 3, status: 'pending' };

  it('fails a pet read back with another name or categoryId, and observes another status', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    expect(model.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0)).toEqual([]);
    expect(model.observe(request('GET', '/pets/5'), 200, { id: 5, ...created }, 10)).toEqual([]);
    const cut = model.observe(request('GET', '/pets/5'), 200, { id: 5, ...created, name: 'Re' }, 2000);
    expect(rulesOf(cut)).toEqual(['fail read-back-values']);
    const moved = model.observe(request('GET', '/pets'), 200, [{ id: 5, ...created, status: 'available' }], 2010);
    expect(rulesOf(moved)).toEqual(['observed status-changed']);
  });

  it('observes a status the 201 echoed but later reads do not show, and never fails it (transitions are not shown)', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    model.observe(request('POST', '/pets', created), 201, { id: 7, ...created }, 0);
    for (const at of [5, 5000]) {
      const read = model.observe(request('GET', '/pets/7'), 200, { id: 7, ...created, status: 'available' }, at);
      expect(rulesOf(read)).toEqual(['observed status-changed']);
    }
  });

  it('lets a created pet be missing within the settle window, and fails it after', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    model.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0);
    expect(rulesOf(model.observe(request('GET', '/pets/5'), 404, undefined, 500))).toEqual(['observed settle-time']);
    expect(rulesOf(model.observe(request('GET', '/pets/5'), 404, undefined, 1500))).toEqual(['fail write-kept']);
    expect(model.observe(request('GET', '/pets/6'), 404, undefined, 1500)).toEqual([]);
  });

  it('judges a read by when it was sent: a 404 answered past the settle window to a read sent within it proves nothing', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    model.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0);
    // Answered 1,600 ms after the create, sent at 900: the deployment may have read its store within the window.
    const slow = model.observe(request('GET', '/pets/5'), 404, undefined, 1600, { sentAt: 900 });
    expect(rulesOf(slow)).toEqual(['observed settle-time']);
    const late = model.observe(request('GET', '/pets/5'), 404, undefined, 1700, { sentAt: 1100 });
    expect(rulesOf(late)).toEqual(['fail write-kept']);
    expect(late[0]?.message).toBe('getPet 5 answered 404 1100 ms after the pet was created with that id');
  });

  it("gives a proxy in front of a client the client's verdict on a 404: each counts from when the read was sent", () => {
    // The client's clock and the proxy's: the proxy sees the 201 and the read's answer first, the read itself after
    // the client sent it. The client, busy, takes the first read's answer 16 ms after the proxy passed it on.
    const client = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    const proxy = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    client.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 1000);
    proxy.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 995);
    const verdicts = (clientRead: [number, number], proxyRead: [number, number]) => [
      rulesOf(client.observe(request('GET', '/pets/5'), 404, undefined, clientRead[1], { sentAt: clientRead[0] })),
      rulesOf(proxy.observe(request('GET', '/pets/5'), 404, undefined, proxyRead[1], { sentAt: proxyRead[0] })),
    ];
    expect(verdicts([1990, 2010], [1992, 1994])).toEqual([['observed settle-time'], ['observed settle-time']]);
    expect(verdicts([2101, 2110], [2103, 2105])).toEqual([['fail write-kept'], ['fail write-kept']]);
  });

  it('fails an id handed out again, whether created or listed before, where the document deletes nothing', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    model.observe(request('GET', '/pets'), 200, [{ id: 1, name: 'Old', categoryId: 1 }], 0);
    expect(rulesOf(model.observe(request('POST', '/pets', created), 201, { id: 1, ...created }, 1))).toEqual([
      'fail created-id-new',
    ]);
    model.observe(request('POST', '/pets', created), 201, { id: 9007199254740993n, ...created }, 2);
    const again = model.observe(request('POST', '/pets', created), 201, { id: 9007199254740993n, ...created }, 3);
    expect(rulesOf(again)).toEqual(['fail created-id-new']);
    expect(again[0]?.message).toContain('9007199254740993');
  });

  it('does not fail an id only seen listed when the document lets items be deleted, but still one it created', () => {
    const model = new ReferenceModel({ compiled: evolved, settleMs: 1000 });
    model.observe(evolvedRequest('GET', '/pets'), 200, [{ id: 1, name: 'Old', categoryId: 1 }], 0);
    expect(model.observe(evolvedRequest('POST', '/pets', created), 201, { id: 1, ...created }, 1)).toEqual([]);
    expect(rulesOf(model.observe(evolvedRequest('POST', '/pets', created), 201, { id: 1, ...created }, 2))).toEqual([
      'fail created-id-new',
    ]);
  });

  it('stays within its bound, forgetting the least recently touched pets first', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 0, maxItems: 3 });
    for (let id = 1; id <= 5; id++) model.observe(request('POST', '/pets', created), 201, { id, ...created }, id);
    expect(model.size).toBe(3);
    expect(model.items().map((item) => item.key)).toEqual(['3', '4', '5']);
    expect(model.observe(request('GET', '/pets/1'), 404, undefined, 100)).toEqual([]);
  });

  it('fails a deleted pet still read once the settle window has passed, and observes it within', () => {
    const model = new ReferenceModel({ compiled: evolved, settleMs: 1000 });
    model.observe(evolvedRequest('POST', '/pets', created), 201, { id: 8, ...created }, 0);
    expect(model.observe(evolvedRequest('DELETE', '/pets/8'), 204, undefined, 10)).toEqual([]);
    expect(model.observe(evolvedRequest('GET', '/pets/8'), 404, undefined, 20)).toEqual([]);
    expect(rulesOf(model.observe(evolvedRequest('GET', '/pets/8'), 200, { id: 8, ...created }, 500))).toEqual([
      'observed settle-time',
    ]);
    const kept = model.observe(evolvedRequest('GET', '/pets'), 200, [{ id: 8, ...created }], 2000);
    expect(rulesOf(kept)).toEqual(['fail write-kept']);
    expect(kept[0]?.message).toBe('listPets shows pet 8, which was deleted 1990 ms earlier');
    // Deleted twice: the second answers 404, which is right.
    expect(model.observe(evolvedRequest('DELETE', '/pets/8'), 404, undefined, 2100)).toEqual([]);
  });

  it('holds a replaced pet to the values of the replace, the old ones observed only within the settle window', () => {
    const model = new ReferenceModel({ compiled: evolved, settleMs: 1000 });
    model.observe(evolvedRequest('POST', '/pets', created), 201, { id: 9, ...created }, 0);
    const replacement = { name: 'Rexy', categoryId: 4, status: 'sold' };
    expect(model.observe(evolvedRequest('PUT', '/pets/9', replacement), 200, { id: 9, ...replacement }, 100)).toEqual(
      [],
    );
    expect(model.observe(evolvedRequest('GET', '/pets/9'), 200, { id: 9, ...replacement }, 150)).toEqual([]);
    const lagging = model.observe(evolvedRequest('GET', '/pets/9'), 200, { id: 9, ...created }, 600);
    expect(rulesOf(lagging)).toEqual(['observed settle-time', 'observed settle-time', 'observed status-changed']);
    const old = model.observe(evolvedRequest('GET', '/pets/9'), 200, { id: 9, ...created }, 5000);
    expect(rulesOf(old)).toEqual(['fail read-back-values', 'fail read-back-values', 'observed status-changed']);
    expect(old[0]?.message).toBe(`getPet 9 shows pet 9 with 'name' "Rex"; it was replaced with "Rexy" 4900 ms earlier`);
  });

  it('warns of a name read back in another normal form, and still fails any other change of it', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    const decomposed = { ...created, name: 'Zoe\u0308' };
    model.observe(request('POST', '/pets', decomposed), 201, { id: 5, ...decomposed }, 0);
    const composed = model.observe(request('GET', '/pets/5'), 200, { id: 5, ...created, name: 'Zoë' }, 2000);
    expect(rulesOf(composed)).toEqual(['warn text-normalised']);
    expect(composed[0]?.message).toMatch(/'name' "Zoë"; it was created with "Zoe\\u0308" .*another normal form$/);
    const cased = model.observe(request('GET', '/pets', undefined), 200, [{ id: 5, ...created, name: 'ZOË' }], 2000);
    expect(rulesOf(cased)).toEqual(['fail read-back-values']);
  });

  it('clones what it knows into a model that goes on apart, for what-if judgements', () => {
    const model = new ReferenceModel({ compiled: kit, settleMs: 1000 });
    model.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0);
    model.observe(
      request('GET', '/pets'),
      200,
      [
        { id: 1, ...created },
        { id: 5, ...created },
      ],
      5,
    );
    const copy = model.clone();
    expect(copy.items().map((item) => item.key)).toEqual(['1', '5']);
    expect(copy.largestPage(copy.api.resources[0]!)).toBe(2);
    // The copy judges as the original would, and what it learns stays its own.
    expect(rulesOf(copy.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 10))).toEqual([
      'fail created-id-new',
    ]);
    copy.observe(request('POST', '/pets', created), 201, { id: 6, ...created }, 10);
    expect(copy.size).toBe(3);
    expect(model.size).toBe(2);
    expect(model.item(model.api.resources[0]!, 6)).toBeUndefined();
    expect(model.observe(request('POST', '/pets', created), 201, { id: 6, ...created }, 20)).toEqual([]);
  });

  it('fails a 404 to a replace of a pet it created, once the settle window has passed', () => {
    const model = new ReferenceModel({ compiled: evolved, settleMs: 1000 });
    model.observe(evolvedRequest('POST', '/pets', created), 201, { id: 10, ...created }, 0);
    expect(rulesOf(model.observe(evolvedRequest('PUT', '/pets/10', created), 404, undefined, 3000))).toEqual([
      'fail write-kept',
    ]);
  });
});
