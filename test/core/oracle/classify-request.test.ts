import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);

function classify(path: string, query: string, headers: Record<string, string>, body?: string, method = 'GET') {
  const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
  return classifyRequest({
    operation,
    pathParams,
    query,
    headers,
    body: body === undefined ? undefined : new TextEncoder().encode(body),
  });
}

describe('classifyRequest: the same request classified again', () => {
  it('hands a valid request without a body the classification it gave before, frozen', () => {
    const first = classify('/pets', 'limit=5', { authorization: 'Bearer a' });
    const again = classify('/pets', 'limit=5', { authorization: 'Bearer a' });
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
    expect(Object.isFrozen(again.valid?.query)).toBe(true);
    expect(() => {
      (again.valid?.query as Record<string, unknown>).limit = 50;
    }).toThrow(TypeError);
  });

  it('classifies anew what differs in anything the classification reads: the key, the query, a path, a condition', () => {
    const base = classify('/pets', 'limit=5', { authorization: 'Bearer a' });
    expect(classify('/pets', 'limit=5', {}).credential).toBe('none');
    expect(classify('/pets', 'limit=5', { authorization: 'Basic a' }).credential).toBe('malformed');
    expect(classify('/pets', 'limit=6', { authorization: 'Bearer a' }).valid?.query.limit).toBe(6);
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer a', 'if-none-match': '"x"' }).conditional).toBe(true);
    expect(classify('/pets/7', '', { authorization: 'Bearer a' }).valid?.path.petId).toBe(7);
    expect(classify('/pets/8', '', { authorization: 'Bearer a' }).valid?.path.petId).toBe(8);
    expect(base.credential).toBe('bearer');
    expect(base.conditional).toBe(false);
  });

  it('tells a request from the one just before it by any one part: the key, the query, a path parameter, a condition', () => {
    // Each request follows one that differs from it in that part alone, so the last one classified must not be taken.
    const listed = classify('/pets', 'limit=5', { authorization: 'Bearer a' });
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer a' })).toBe(listed);
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer a', 'if-none-match': '"x"' }).conditional).toBe(true);
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer a' }).conditional).toBe(false);
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer b' }).credential).toBe('bearer');
    expect(classify('/pets', 'limit=5', {}).credential).toBe('none');
    expect(classify('/pets', 'limit=5', { authorization: 'Bearer a' }).valid?.query.limit).toBe(5);
    expect(classify('/pets', 'limit=7', { authorization: 'Bearer a' }).valid?.query.limit).toBe(7);
    const seven = classify('/pets/7', '', { authorization: 'Bearer a' });
    expect(seven.valid?.path.petId).toBe(7);
    // The same parameters in another object (a route matched anew) are the same request.
    const sevenAgain = classifyRequest({
      ...seven,
      operation: seven.operation,
      pathParams: { petId: '7' },
      query: '',
      headers: { authorization: 'Bearer a' },
      body: undefined,
    });
    expect(sevenAgain).toBe(seven);
    expect(
      classifyRequest({
        operation: seven.operation,
        pathParams: { petId: '8' },
        query: '',
        headers: { authorization: 'Bearer a' },
        body: undefined,
      }).valid?.path.petId,
    ).toBe(8);
  });

  it('classifies an invalid request and a request with a body anew each time, as the caller may add to them', () => {
    const invalid = classify('/pets', 'limit=0', { authorization: 'Bearer a' });
    expect(invalid.validity).toBe('open');
    expect(classify('/pets', 'limit=0', { authorization: 'Bearer a' })).not.toBe(invalid);
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const headers = { authorization: 'Bearer a', 'content-type': 'application/json' };
    const created = classify('/pets', '', headers, body, 'POST');
    expect(created.validity).toBe('valid');
    expect(classify('/pets', '', headers, body, 'POST')).not.toBe(created);
  });
});
