import { describe, expect, it } from 'vitest';
import type { ContractResponse } from '../../src/contract/http-client.js';
import { responseProblems } from '../../src/contract/response-rules.js';
import { compileDocument } from '../../src/openapi/compile-document.js';
import { loadDocument } from '../../src/openapi/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const getPet = compiled.byId.get('getPet');
const listPets = compiled.byId.get('listPets');
if (!getPet || !listPets) throw new Error('openapi.yaml lost getPet or listPets');

function response(status: number, body: unknown, contentType = 'application/json'): ContractResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers: { 'content-type': contentType },
    mediaType: contentType.split(';')[0] ?? '',
    contentType,
    text,
    json,
    jsonError: json === undefined && text !== '' ? 'not JSON' : undefined,
    durationMs: 1,
  };
}

const pet = { id: 3, name: 'Luna', categoryId: 1, status: 'sold' };

describe('responseProblems', () => {
  it('finds nothing wrong with a documented status, JSON and a valid body', () => {
    expect(responseProblems(compiled, getPet, response(200, pet))).toEqual([]);
    expect(responseProblems(compiled, getPet, response(404, { code: 'x', message: 'y', status: 404 }))).toEqual([]);
    expect(responseProblems(compiled, getPet, response(200, pet, 'application/json; charset=utf-8'))).toEqual([]);
  });

  it('reports a status the document does not list for the operation', () => {
    expect(responseProblems(compiled, listPets, response(404, { code: 'x', message: 'y', status: 404 }))).toEqual([
      'undocumented status 404 for listPets (documented: 200, 401)',
    ]);
  });

  it('reports a Content-Type that is not JSON', () => {
    expect(responseProblems(compiled, getPet, response(404, '<h1>Not Found</h1>', 'text/html'))).toEqual([
      `Content-Type is 'text/html', not JSON (body starts: "<h1>Not Found</h1>")`,
    ]);
  });

  it('reports a JSON Content-Type over a body that is not JSON', () => {
    expect(responseProblems(compiled, getPet, response(200, '{"id": 3'))[0]).toMatch(/^body is not valid JSON/);
  });

  it('reports an empty body', () => {
    expect(responseProblems(compiled, getPet, response(200, ''))).toEqual(['status 200 came with an empty body']);
  });

  it('reports a body that breaks the documented schema, naming the field', () => {
    expect(responseProblems(compiled, getPet, response(200, { ...pet, categoryId: '1' }))).toEqual([
      "body does not match the documented schema for 200: response field 'categoryId' must be integer",
    ]);
  });

  it('reports an error body that is not an Error', () => {
    expect(responseProblems(compiled, getPet, response(401, { error: 'no' }))[0]).toMatch(
      /^error body is not a valid Error: body must have required property 'code'/,
    );
  });

  it('reports an Error whose status differs from the HTTP status', () => {
    expect(responseProblems(compiled, getPet, response(404, { code: 'x', message: 'y', status: 400 }))).toEqual([
      'Error.status mismatch: the body says 400 but the HTTP status is 404',
    ]);
  });
});
