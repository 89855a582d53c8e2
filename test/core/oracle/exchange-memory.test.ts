import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { ExchangeMemory } from '../../../src/core/oracle/exchange-memory.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));

function request(method: string, path: string, body?: unknown) {
  const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
  return classifyRequest({
    operation,
    pathParams,
    query: '',
    headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  });
}

const rulesOf = (findings: ReadonlyArray<{ rule: string; level: string }>) =>
  findings.map((f) => `${f.level} ${f.rule}`);

describe('ExchangeMemory', () => {
  const created = { name: 'Rex', categoryId: 3, status: 'pending' };

  it('fails a pet read back with another name or categoryId, and observes another status', () => {
    const memory = new ExchangeMemory({ compiled, settleMs: 1000 });
    expect(memory.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0)).toEqual([]);
    expect(memory.observe(request('GET', '/pets/5'), 200, { id: 5, ...created }, 10)).toEqual([]);
    const cut = memory.observe(request('GET', '/pets/5'), 200, { id: 5, ...created, name: 'Re' }, 20);
    expect(rulesOf(cut)).toEqual(['fail read-back-values']);
    const moved = memory.observe(request('GET', '/pets'), 200, [{ id: 5, ...created, status: 'available' }], 30);
    expect(rulesOf(moved)).toEqual(['observed status-changed']);
  });

  it('lets a created pet be missing within the settle window, and fails it after', () => {
    const memory = new ExchangeMemory({ compiled, settleMs: 1000 });
    memory.observe(request('POST', '/pets', created), 201, { id: 5, ...created }, 0);
    expect(rulesOf(memory.observe(request('GET', '/pets/5'), 404, undefined, 500))).toEqual(['observed settle-time']);
    expect(rulesOf(memory.observe(request('GET', '/pets/5'), 404, undefined, 1500))).toEqual(['fail write-kept']);
    expect(memory.observe(request('GET', '/pets/6'), 404, undefined, 1500)).toEqual([]);
  });

  it('fails an id handed out again, whether created or listed before', () => {
    const memory = new ExchangeMemory({ compiled, settleMs: 1000 });
    memory.observe(request('GET', '/pets'), 200, [{ id: 1, name: 'Old', categoryId: 1 }], 0);
    expect(rulesOf(memory.observe(request('POST', '/pets', created), 201, { id: 1, ...created }, 1))).toEqual([
      'fail created-id-new',
    ]);
    memory.observe(request('POST', '/pets', created), 201, { id: 9007199254740993n, ...created }, 2);
    const again = memory.observe(request('POST', '/pets', created), 201, { id: 9007199254740993n, ...created }, 3);
    expect(rulesOf(again)).toEqual(['fail created-id-new']);
    expect(again[0]?.message).toContain('9007199254740993');
  });

  it('stays within its bound, forgetting the oldest pets first', () => {
    const memory = new ExchangeMemory({ compiled, settleMs: 0, maxItems: 3 });
    for (let id = 1; id <= 5; id++) memory.observe(request('POST', '/pets', created), 201, { id, ...created }, id);
    expect(memory.size).toBe(3);
    expect([...memory.created().keys()]).toEqual(['3', '4', '5']);
    expect(memory.observe(request('GET', '/pets/1'), 404, undefined, 100)).toEqual([]);
  });
});
