import { describe, expect, it } from 'vitest';
import { explainingOrder, type GroupExchange } from '../../src/contract/support/send-together.js';
import { ReferenceModel } from '../../src/core/oracle/reference-model.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../src/core/pipeline/match-route.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));

/** An exchange of a group, answered at `at` (ms). */
function exchange(method: string, path: string, body: unknown, status: number, answer: unknown, at: number) {
  const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
  const classified = classifyRequest({
    operation,
    pathParams,
    query: '',
    headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  });
  return { classified, status, body: answer, answeredAt: at, write: method === 'POST' } satisfies GroupExchange;
}

const tom = { name: 'Tom', categoryId: 1 };
const create = (id: number, at: number, body: Record<string, unknown> = tom) =>
  exchange('POST', '/pets', body, 201, { id, ...body }, at);
const list = (ids: number[], at: number, body: Record<string, unknown> = tom) =>
  exchange(
    'GET',
    '/pets',
    undefined,
    200,
    ids.map((id) => ({ id, ...body })),
    at,
  );

describe('explainingOrder: requests sent at once, judged as some order of them', () => {
  it('explains a page answered before the create it shows: the create came first', () => {
    const model = new ReferenceModel({ compiled, settleMs: 1000 });
    // In the order the answers came, the page would show pet 7 before its create handed it out.
    const group = [list([7], 10), create(7, 12)];
    expect(explainingOrder(model, group)).toEqual([1, 0]);
    expect(model.size).toBe(0);
  });

  it('explains equal bodies created at once with ids of their own, in any order the answers came', () => {
    const model = new ReferenceModel({ compiled, settleMs: 1000 });
    expect(explainingOrder(model, [create(9, 30), create(8, 10), list([8], 20)])).toEqual([1, 0, 2]);
  });

  it('finds no order for two creates given the same id, whatever came first', () => {
    const model = new ReferenceModel({ compiled, settleMs: 1000 });
    expect(explainingOrder(model, [create(5, 10), create(5, 11)])).toBeUndefined();
    expect(explainingOrder(model, [create(5, 10, { name: 'Rex', categoryId: 2 }), create(5, 11)])).toBeUndefined();
  });

  it('finds no order for a page that shows a pet with values no create of the group or before gave it', () => {
    const model = new ReferenceModel({ compiled, settleMs: 1000 });
    model.observe(create(3, 0).classified, 201, { id: 3, ...tom }, 0);
    // Pet 3 was created as Tom long before (outside the settle window): no order makes it Rex.
    expect(explainingOrder(model, [create(4, 5000), list([3], 5001, { name: 'Rex', categoryId: 1 })])).toBeUndefined();
    expect(explainingOrder(model, [create(4, 5000), list([3, 4], 5001)])).toEqual([0, 1]);
  });
});
