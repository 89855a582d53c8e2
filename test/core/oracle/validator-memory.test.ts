import { describe, expect, it } from 'vitest';
import { ReferenceModel } from '../../../src/core/oracle/reference-model.js';
import { type ExchangeFacts, parseEntityTag, parseTagList } from '../../../src/core/oracle/validator-memory.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest } from '../../../src/core/oracle/classify-request.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);
const settleMs = 1000;
const target = '/pets?limit=100';

function request(method: string, path: string, query = '', headers: Record<string, string> = {}, body?: unknown) {
  const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
  return classifyRequest({
    operation,
    pathParams,
    query,
    headers: { authorization: 'Bearer key', 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  });
}

const pets = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `Pet ${from + index}`, categoryId: 1 }));
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const rules = (findings: ReadonlyArray<{ rule: string; level: string }>) => findings.map((f) => `${f.level} ${f.rule}`);
const date = (ms: number) => new Date(ms).toUTCString();

/** A model that saw a page of 3 pets (and once a page of 5, so no page cap cut it), then a create sent after it. */
function afterACreate(validators: Pick<ExchangeFacts, 'etag' | 'lastModified' | 'date'>, createSentAt = 20) {
  const model = new ReferenceModel({ compiled, settleMs });
  model.observe(request('GET', '/pets', 'limit=5'), 200, pets(5), 0, { target: '/pets?limit=5', sentAt: 0 });
  const page = pets(3);
  model.observe(request('GET', '/pets', 'limit=100'), 200, page, 10, {
    target,
    sentAt: 5,
    ...validators,
    bytes: bytes(page),
  });
  const body = { name: 'Rex', categoryId: 2 };
  model.observe(request('POST', '/pets', '', {}, body), 201, { id: 40, ...body }, 30, { sentAt: createSentAt });
  return model;
}

/** A revalidation of the page, answered 304 at `at`. */
function notModified(model: ReferenceModel, at: number, headers: Record<string, string>) {
  const facts: ExchangeFacts = { target, sentAt: at - 1 };
  if (headers['if-none-match']) facts.ifNoneMatch = headers['if-none-match'];
  if (headers['if-modified-since']) facts.ifModifiedSince = headers['if-modified-since'];
  return model.observe(request('GET', '/pets', 'limit=100', headers), 304, undefined, at, facts);
}

describe('entity tags', () => {
  it('reads strong and weak tags and the lists If-None-Match holds', () => {
    expect(parseEntityTag('"abc"')).toEqual({ opaque: 'abc', weak: false });
    expect(parseEntityTag('W/"abc"')).toEqual({ opaque: 'abc', weak: true });
    expect(parseEntityTag('abc')).toBeUndefined();
    expect(parseTagList('"a", W/"b"')).toEqual([
      { opaque: 'a', weak: false },
      { opaque: 'b', weak: true },
    ]);
    expect(parseTagList(' * ')).toBe('*');
  });
});

describe('ReferenceModel: conditional requests', () => {
  it('fails one strong ETag given to two different representations of a target, once, and lets a weak one be shared', () => {
    for (const [etag, expected] of [
      ['"v1"', ['fail strong-validator']],
      ['W/"v1"', []],
    ] as const) {
      const model = new ReferenceModel({ compiled, settleMs });
      const observe = (page: unknown[], at: number) =>
        model.observe(request('GET', '/pets', 'limit=100'), 200, page, at, {
          target,
          sentAt: at,
          etag,
          bytes: bytes(page),
        });
      expect(observe(pets(3), 0)).toEqual([]);
      expect(observe(pets(3), 1)).toEqual([]);
      expect(rules(observe(pets(4), 2))).toEqual(expected);
      // Said once for the target and tag, not at every answer after.
      expect(observe(pets(5), 3)).toEqual([]);
    }
  });

  it('fails a 304 to a strong ETag once a create sent after its page has settled, and says nothing within the window', () => {
    const model = afterACreate({ etag: '"v1"' });
    expect(notModified(model, 500, { 'if-none-match': '"v1"' })).toEqual([]);
    const stale = notModified(model, 1100, { 'if-none-match': '"v1"' });
    expect(rules(stale)).toEqual(['fail not-modified-current']);
    expect(stale[0]?.message).toMatch(
      /answered 304 for \/pets\?limit=100 to If-None-Match: "v1", the ETag of an answer \d+ ms earlier, though pet 40 was created 10 ms after it, and that page held every pet \(3, fewer than a page\)/,
    );
    expect(stale[0]?.basis).toMatch(/RFC 9110 §13\.1\.2/);
    // A tag it never gave this target is not the model's to judge (the suite knows which tags it made up).
    expect(notModified(model, 1100, { 'if-none-match': '"other"' })).toEqual([]);
  });

  it('warns, never fails, a 304 to a weak ETag past a settled create: the deployment may take the old page as a substitute', () => {
    const model = afterACreate({ etag: 'W/"v1"' });
    expect(rules(notModified(model, 1100, { 'if-none-match': 'W/"v1"' }))).toEqual(['warn weak-validator']);
  });

  it('proves no change by a create sent before the page came, nor on a page its size or a page cap may have cut', () => {
    expect(notModified(afterACreate({ etag: '"v1"' }, 8), 1100, { 'if-none-match': '"v1"' })).toEqual([]);
    const model = new ReferenceModel({ compiled, settleMs });
    const page = pets(5);
    model.observe(request('GET', '/pets', 'limit=100'), 200, page, 10, { target, sentAt: 5, etag: '"v1"' });
    const body = { name: 'Rex', categoryId: 2 };
    model.observe(request('POST', '/pets', '', {}, body), 201, { id: 40, ...body }, 30, { sentAt: 20 });
    // No larger page was seen: a page cap of 5 may have cut the page, so the create need not change it.
    expect(notModified(model, 1100, { 'if-none-match': '"v1"' })).toEqual([]);
  });

  it('fails a 304 to If-Modified-Since only when the page was dated a whole second after that date', () => {
    const second = Date.UTC(2030, 0, 1, 12, 0, 0);
    const later = afterACreate({ lastModified: date(second), date: date(second + 1000) });
    const stale = notModified(later, 1100, { 'if-modified-since': date(second) });
    expect(rules(stale)).toEqual(['fail not-modified-current']);
    expect(stale[0]?.basis).toMatch(/§13\.1\.3/);
    // Dated the very second of its Last-Modified: a create since may share that second (one-second resolution).
    const same = afterACreate({ lastModified: date(second), date: date(second + 400) });
    expect(notModified(same, 1100, { 'if-modified-since': date(second) })).toEqual([]);
    // If-Modified-Since is ignored beside If-None-Match (RFC 9110 §13.1.3), which names no tag it knows here.
    expect(notModified(later, 1100, { 'if-none-match': '"x"', 'if-modified-since': date(second) })).toEqual([]);
  });

  it('warns of a Last-Modified that stays before a change it must show', () => {
    const second = Date.UTC(2030, 0, 1, 12, 0, 0);
    const model = afterACreate({ lastModified: date(second), date: date(second + 2000) });
    const page = pets(3).concat({ id: 40, name: 'Rex', categoryId: 2 });
    const found = model.observe(request('GET', '/pets', 'limit=100'), 200, page, 1100, {
      target,
      sentAt: 1090,
      lastModified: date(second),
      date: date(second + 4000),
    });
    expect(rules(found)).toEqual(['warn weak-validator']);
  });

  it('judges nothing of a deployment that sends no validator', () => {
    const model = afterACreate({});
    expect(notModified(model, 1100, { 'if-none-match': '"v1"' })).toEqual([]);
    expect(notModified(model, 1100, { 'if-modified-since': date(Date.UTC(2000, 0, 1)) })).toEqual([]);
  });

  it('observes a 200 whose ETag the request matched: the precondition was not evaluated', () => {
    const model = new ReferenceModel({ compiled, settleMs });
    const found = model.observe(request('GET', '/pets', 'limit=100', { 'if-none-match': '"v1"' }), 200, pets(3), 0, {
      target,
      ifNoneMatch: '"v1"',
      etag: '"v1"',
    });
    expect(rules(found)).toEqual(['observed not-modified']);
  });

  it('stays within its bound, forgetting the least recently used target first', () => {
    const model = new ReferenceModel({ compiled, settleMs, maxItems: 400 });
    for (let index = 0; index < 50; index++) {
      model.observe(request('GET', '/pets', `limit=${index + 1}`), 200, pets(10), index, {
        target: `/pets?limit=${index + 1}`,
        etag: `"t${index}"`,
      });
    }
    // Items are 10 (the same pets); the validators' answers and ids are held to a quarter of the bound.
    expect(model.size).toBe(10);
    expect(model.weight - model.size).toBeLessThanOrEqual(100);
  });
});
