import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import type { Finding } from '../../../src/core/oracle/finding.js';
import { judgeReceivedResponse, judgeResponseValue } from '../../../src/core/oracle/judge-response.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const operation = (id: string) => {
  const found = compiled.byId.get(id);
  if (!found) throw new Error(`openapi.yaml lost ${id}`);
  return found;
};
const getPet = operation('getPet');
const listPets = operation('listPets');
const createPet = operation('createPet');

const received = (status: number, text: string, contentType: string | undefined = 'application/json') =>
  judgeReceivedResponse(compiled, getPet, { status, contentType, body: text });
const rules = (violations: ReadonlyArray<Pick<Finding, 'rule'>>) => violations.map((v) => v.rule);

describe('judgeReceivedResponse', () => {
  it('finds nothing wrong with a documented status, JSON and a valid body', () => {
    expect(received(200, '{"id":3,"name":"Luna","categoryId":1,"status":"sold"}').findings).toEqual([]);
    expect(received(404, '{"code":"x","message":"y","status":404}').findings).toEqual([]);
  });

  it('accepts a charset parameter and fields the schema does not forbid (correct but different)', () => {
    const text = '{"id":3,"name":"Luna","categoryId":1,"extra":{"a":[1]}}';
    expect(received(200, text, 'application/json; charset=utf-8').findings).toEqual([]);
    expect(received(404, '{"code":"x","message":"y","status":404,"trace":"abc"}').findings).toEqual([]);
  });

  it('keeps ids beyond 2^53 exactly and accepts the whole int64 range', () => {
    const text = '{"id":9223372036854775807,"name":"Big","categoryId":-9223372036854775808}';
    const result = received(200, text);
    expect(result.findings).toEqual([]);
    expect((result.body as { id: unknown }).id).toBe(9223372036854775807n);
    expect((result.body as { categoryId: unknown }).categoryId).toBe(-9223372036854775808n);
  });

  it('reports an id just outside int64 as a format problem naming the field', () => {
    const result = received(200, '{"id":9223372036854775808,"name":"Big","categoryId":1}');
    expect(rules(result.findings)).toEqual(['schema']);
    expect(result.findings[0]?.message).toMatch(/response field 'id' must be an int64/);
  });

  it('reports an integer written as a decimal literal or with an exponent', () => {
    for (const literal of ['1.0', '1e3', '3.00']) {
      const result = received(200, `{"id":${literal},"name":"Luna","categoryId":1}`);
      expect(rules(result.findings)).toEqual(['schema']);
      expect(result.findings[0]?.message).toContain(`'id' must be integer (${literal} is written as a decimal)`);
    }
  });

  it('reports a status the document does not list for the operation', () => {
    const result = judgeReceivedResponse(compiled, listPets, {
      status: 404,
      contentType: 'application/json',
      body: '{"code":"x","message":"y","status":404}',
    });
    expect(rules(result.findings)).toEqual(['documented-status']);
    expect(result.findings[0]?.message).toBe('status 404 is not documented for listPets (documented: 200, 401)');
  });

  it('lets the mock send an undocumented status with an Error body when told to allow it', () => {
    const error = { code: 'invalid_parameter', message: 'no', status: 400 };
    expect(rules(judgeResponseValue(compiled, listPets, 400, 'application/json', error))).toEqual([
      'documented-status',
    ]);
    const allowed = { allowUndocumentedStatus: true };
    expect(judgeResponseValue(compiled, listPets, 400, 'application/json', error, allowed)).toEqual([]);
    expect(rules(judgeResponseValue(compiled, listPets, 400, 'application/json', [], allowed))).toEqual(['error-body']);
  });

  it('reports a Content-Type that is not JSON, with the start of the body', () => {
    const result = received(404, '<h1>Not Found</h1>', 'text/html');
    expect(rules(result.findings)).toEqual(['media-type']);
    expect(result.findings[0]?.message).toBe(
      `Content-Type is 'text/html', not JSON (body starts: "<h1>Not Found</h1>")`,
    );
  });

  it('reports a JSON Content-Type over a body that is not JSON', () => {
    const result = received(200, '{"id": 3');
    expect(rules(result.findings)).toEqual(['json-syntax']);
    expect(result.findings[0]?.message).toMatch(/^the body is not valid JSON/);
  });

  it('reports a key repeated with another value instead of picking one', () => {
    expect(rules(received(200, '{"id":3,"id":4,"name":"Luna","categoryId":1}').findings)).toEqual(['json-syntax']);
  });

  it('reports an empty body where the status documents one', () => {
    expect(received(200, '').findings).toMatchObject([
      { rule: 'body-presence', level: 'fail', message: 'status 200 came without a body' },
    ]);
  });

  it('reports a body that breaks the documented schema, naming the field', () => {
    const result = received(200, '{"id":3,"name":"Luna","categoryId":"1"}');
    expect(result.findings).toMatchObject([
      {
        rule: 'schema',
        message:
          'the 200 body does not match the documented schema: response field \'categoryId\' must be integer (body: {"id":3,"name":"Luna","categoryId":"1"})',
      },
    ]);
  });

  it('reports an enum value in another case', () => {
    const result = received(200, '{"id":3,"name":"Luna","categoryId":1,"status":"SOLD"}');
    expect(result.findings[0]?.message).toContain("response field 'status' must be one of: available, pending, sold");
  });

  it('reports an error body that is not an Error', () => {
    const result = received(401, '{"error":"no"}');
    expect(rules(result.findings)).toEqual(['schema']);
    expect(result.findings[0]?.message).toContain("response field 'code' is required");
  });

  it('reports an Error whose status differs from the HTTP status', () => {
    expect(received(404, '{"code":"x","message":"y","status":400}').findings).toMatchObject([
      {
        rule: 'error-status',
        message:
          'the Error body says status 400 but the HTTP status is 404 (body: {"code":"x","message":"y","status":400})',
      },
    ]);
  });

  it('judges an unknown path (no operation) by the Error schema alone', () => {
    const ok = judgeReceivedResponse(compiled, undefined, {
      status: 404,
      contentType: 'application/json',
      body: '{"code":"route_not_found","message":"no","status":404}',
    });
    expect(ok.findings).toEqual([]);
    const html = judgeReceivedResponse(compiled, undefined, {
      status: 404,
      contentType: 'text/html',
      body: 'Not Found',
    });
    expect(rules(html.findings)).toEqual(['error-body']);
  });

  it('judges a created pet against Pet, not NewPet', () => {
    const result = judgeReceivedResponse(compiled, createPet, {
      status: 201,
      contentType: 'application/json',
      body: '{"name":"Luna","categoryId":1}',
    });
    expect(result.findings[0]?.message).toContain("response field 'id' is required");
  });
});

describe('judgeReceivedResponse, judging an answer it judged before', () => {
  const answer = (status: number, text: string, contentType = 'application/json') => ({
    status,
    contentType,
    body: text,
  });
  const judge = (status: number, text: string, contentType?: string) =>
    judgeReceivedResponse(compiled, listPets, answer(status, text, contentType));

  it('judges the same text the same way, and another text of the same operation and status anew', () => {
    const broken = '[{"id":1,"name":"Rex","categoryId":"one"}]';
    const good = '[{"id":1,"name":"Rex","categoryId":1}]';
    const first = judge(200, broken);
    expect(rules(first.findings)).toEqual(['schema']);
    const again = judge(200, broken);
    expect(again).toEqual(first);
    // The findings are shared with later judgements of the same text, and frozen: no caller can add to them.
    expect(() => (again.findings as Finding[]).push(again.findings[0] as Finding)).toThrow(TypeError);
    expect(judge(200, good).findings).toEqual([]);
    expect(rules(judge(200, broken).findings)).toEqual(['schema']);
    // Another status or media type of the same text is another judgement.
    expect(rules(judge(201, good).findings)).toEqual(['documented-status']);
    expect(rules(judge(200, good, 'text/plain').findings)).toEqual(['media-type']);
  });

  it('judges the same text anew right after itself when one other part differs: status, media type, operation, options', () => {
    const good = '[{"id":1,"name":"Rex","categoryId":1}]';
    const pet = '{"id":1,"name":"Rex","categoryId":1}';
    expect(judge(200, good).findings).toEqual([]);
    expect(rules(judge(201, good).findings)).toEqual(['documented-status']);
    expect(judge(200, good).findings).toEqual([]);
    expect(rules(judge(200, good, 'text/plain').findings)).toEqual(['media-type']);
    expect(judgeReceivedResponse(compiled, getPet, answer(200, pet)).findings).toEqual([]);
    expect(rules(judgeReceivedResponse(compiled, listPets, answer(200, pet)).findings)).toEqual(['schema']);
    const undocumented = judgeReceivedResponse(compiled, listPets, answer(201, good), {
      allowUndocumentedStatus: true,
    });
    expect(rules(undocumented.findings)).not.toContain('documented-status');
    expect(rules(judgeReceivedResponse(compiled, listPets, answer(201, good)).findings)).toEqual(['documented-status']);
  });
});
