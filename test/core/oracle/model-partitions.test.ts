import { describe, expect, it, vi } from 'vitest';
import { ModelPartitions } from '../../../src/core/oracle/model-partitions.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);
const pet = { name: 'Rex', categoryId: 1 };

function plain(headers: Record<string, string>): PlainRequest {
  return { method: 'POST', path: '/v1/pets', query: '', headers };
}

function create() {
  const { operation, pathParams } = matchRoute(compiled, 'POST', '/pets', { basePath: '', path: '/pets' });
  return classifyRequest({
    operation,
    pathParams,
    query: '',
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify(pet)),
  });
}

describe('ModelPartitions', () => {
  it('judges each session against what that session showed: the same id in two sessions is no finding', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0 });
    const one = partitions.modelFor(plain({ 'petstore-session': 'one' }));
    const two = partitions.modelFor(plain({ 'petstore-session': 'two' }));
    expect(one).not.toBe(two);
    expect(one.observe(create(), 201, { id: 51, ...pet }, 0)).toEqual([]);
    expect(two.observe(create(), 201, { id: 51, ...pet }, 0)).toEqual([]);
    // The same session handing the id out twice still fails.
    expect(one.observe(create(), 201, { id: 51, ...pet }, 1).map((found) => found.rule)).toEqual(['created-id-new']);
    expect(partitions.modelFor(plain({ 'petstore-session': 'one' }))).toBe(one);
  });

  it('partitions by the headers the user names too, and puts requests without any in one partition', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0, headers: ['x-tenant'] });
    const a = partitions.modelFor(plain({ 'x-tenant': 'a' }));
    expect(partitions.modelFor(plain({ 'x-tenant': 'b' }))).not.toBe(a);
    expect(partitions.modelFor(plain({ 'x-tenant': 'a' }))).toBe(a);
    expect(partitions.modelFor(plain({}))).toBe(partitions.modelFor(plain({})));
    expect(partitions.keyOf(plain({ 'petstore-session': 's', 'x-tenant': 'a' }))).not.toBe(
      partitions.keyOf(plain({ 'petstore-session': 'sa' })),
    );
  });

  it('keeps a partition per credential: the same id created under two keys is no finding, and one key still fails', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0 });
    const a = plain({ authorization: 'Bearer tenant-a-key' });
    const b = plain({ authorization: 'Bearer tenant-b-key' });
    expect(partitions.modelFor(a)).not.toBe(partitions.modelFor(b));
    expect(partitions.observe(a, create(), 201, { id: 31, ...pet }, 0)).toEqual([]);
    expect(partitions.observe(b, create(), 201, { id: 31, ...pet }, 0)).toEqual([]);
    expect(partitions.observe(a, create(), 201, { id: 31, ...pet }, 1).map((found) => found.rule)).toEqual([
      'created-id-new',
    ]);
    // The other credential carriers of the kit's rule set partition too: an API key header, a key in the query.
    expect(partitions.keyOf(plain({ 'x-api-key': 'one' }))).not.toBe(partitions.keyOf(plain({ 'x-api-key': 'two' })));
    const inQuery = (key: string): PlainRequest => ({
      method: 'GET',
      path: '/v1/pets',
      query: `api_key=${key}`,
      headers: {},
    });
    expect(partitions.keyOf(inQuery('one'))).not.toBe(partitions.keyOf(inQuery('two')));
    expect(partitions.keyOf(plain({ 'x-request-id': 'r1' }))).toBe(partitions.keyOf(plain({ 'x-request-id': 'r2' })));
  });

  it('holds no credential in a partition key, only a digest of it, also of a credential header named to partition by', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0, headers: ['x-api-key', 'x-tenant'] });
    const key = partitions.keyOf(
      plain({ authorization: 'Bearer s3cr3t-key-value', 'x-api-key': 'another-secret', 'x-tenant': 'acme' }),
    );
    expect(key).not.toContain('s3cr3t');
    expect(key).not.toContain('another-secret');
    expect(key).toContain('acme');
    // Another proxy (another process) digests the same key otherwise: the digest is salted.
    const elsewhere = new ModelPartitions({ compiled, settleMs: 0 });
    const bearer = plain({ authorization: 'Bearer s3cr3t-key-value' });
    expect(elsewhere.keyOf(bearer)).not.toBe(new ModelPartitions({ compiled, settleMs: 0 }).keyOf(bearer));
  });

  it('judges every credential as one store when told that the deployment shares one', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0, sharedCredentials: true });
    const a = plain({ authorization: 'Bearer tenant-a-key' });
    const b = plain({ authorization: 'Bearer tenant-b-key' });
    expect(partitions.modelFor(a)).toBe(partitions.modelFor(b));
    partitions.observe(a, create(), 201, { id: 31, ...pet }, 0);
    expect(partitions.observe(b, create(), 201, { id: 31, ...pet }, 0).map((found) => found.rule)).toEqual([
      'created-id-new',
    ]);
  });

  it('stays within its bounds of partitions and items, forgetting the least recently used partition first', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0, maxPartitions: 3, maxItems: 5 });
    for (let index = 0; index < 10; index++) {
      partitions.modelFor(plain({ 'petstore-session': `s${index}` })).observe(create(), 201, { id: 1, ...pet }, 0);
    }
    expect(partitions.size).toBe(3);
    for (let id = 1; id <= 8; id++) {
      partitions.modelFor(plain({ 'petstore-session': 'big' })).observe(create(), 201, { id, ...pet }, 0);
      partitions.modelFor(plain({ 'petstore-session': 'big' }));
      expect(partitions.items).toBeLessThanOrEqual(5);
    }
    expect(partitions.modelFor(plain({ 'petstore-session': 'big' })).size).toBe(5);
  });
});

describe('ModelPartitions: a list answered again', () => {
  function list() {
    const { operation, pathParams } = matchRoute(compiled, 'GET', '/pets', { basePath: '', path: '/pets' });
    return classifyRequest({ operation, pathParams, query: '', headers: {}, body: undefined });
  }

  it('walks the same page again once anything was observed in its partition since, and judges it anew', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0 });
    const request = plain({});
    // The same parsed page, as the judged answers' cache hands it back for the same bytes.
    const page = [{ id: 51, name: 'Rex', categoryId: 1 }];
    expect(partitions.observe(request, list(), 200, page, 0)).toEqual([]);
    expect(partitions.observe(request, list(), 200, page, 1)).toEqual([]);
    // Pet 51 is created with another name: the same page now shows a lost write.
    partitions.observe(request, create(), 201, { id: 51, name: 'Tom', categoryId: 1 }, 2);
    expect(partitions.observe(request, list(), 200, page, 3).map((found) => found.rule)).toEqual(['read-back-values']);
    expect(partitions.observe(request, list(), 200, page, 4).map((found) => found.rule)).toEqual(['read-back-values']);
  });

  it('does not walk a page that showed nothing when it comes again with nothing observed in between', () => {
    const partitions = new ModelPartitions({ compiled, settleMs: 0 });
    const request = plain({});
    const model = partitions.modelFor(request);
    const page = [{ id: 7, name: 'Rex', categoryId: 1 }];
    partitions.observe(request, list(), 200, page, 0);
    const walked = vi.spyOn(model, 'observe');
    partitions.observe(request, list(), 200, page, 1);
    expect(walked).not.toHaveBeenCalled();
    // Another page (other bytes) is walked.
    partitions.observe(request, list(), 200, [...page], 2);
    expect(walked).toHaveBeenCalledTimes(1);
  });
});
