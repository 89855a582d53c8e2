import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { compileDocument, type CompiledOperation } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { readPreference } from '../../../src/core/pipeline/read-preference.js';
import { caught } from '../../support/caught.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);

function operation(operationId: string): CompiledOperation {
  const found = compiled.byId.get(operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

const getPet = operation('getPet');
const listPets = operation('listPets');

function refusal(target: CompiledOperation, header: string): HttpError {
  return caught(HttpError, () => readPreference(target, header), JSON.stringify(header));
}

describe('readPreference', () => {
  it('reads code=404 on getPet, a documented status, as that status', () => {
    expect(readPreference(getPet, 'code=404')).toEqual({ status: 404 });
  });

  it('reads every documented status of an operation', () => {
    for (const status of getPet.responses.keys()) {
      expect(readPreference(getPet, `code=${status}`)).toEqual({ status: Number(status) });
    }
  });

  it('asks for nothing when there is no header, or an empty or blank one', () => {
    expect(readPreference(getPet, undefined)).toEqual({});
    expect(readPreference(getPet, '')).toEqual({});
    expect(readPreference(getPet, '   ')).toEqual({});
  });

  it('refuses a status the operation does not document with 400 invalid_prefer listing the documented ones', () => {
    const error = refusal(getPet, 'code=418');
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_prefer');
    expect(error.message).toBe('Prefer code=418 is not a documented response of getPet (documented: 200, 401, 404)');
  });

  it('refuses a status documented by another operation but not by this one', () => {
    expect(refusal(listPets, 'code=404').message).toBe(
      'Prefer code=404 is not a documented response of listPets (documented: 200, 401)',
    );
  });

  it.each(['abc', '', '99', '1000', '600', '4O4', '404.0'])(
    'refuses code=%s, which is not a three-digit status',
    (code) => {
      const error = refusal(getPet, `code=${code}`);
      expect(error.code).toBe('invalid_prefer');
      expect(error.message).toBe(`Prefer code must be a three-digit HTTP status, got ${JSON.stringify(code)}`);
    },
  );

  it('reads an example beside a code', () => {
    expect(readPreference(getPet, 'code=404, example=default')).toEqual({ status: 404, example: 'default' });
  });

  it('refuses an example without a code', () => {
    const error = refusal(getPet, 'example=default');
    expect(error.code).toBe('invalid_prefer');
    expect(error.message).toBe('Prefer example=NAME needs code=NNN beside it');
  });

  it('ignores preferences it does not know, as RFC 7240 asks', () => {
    expect(readPreference(getPet, 'respond-async, wait=10, return=minimal')).toEqual({});
    expect(readPreference(getPet, 'respond-async, code=200, dynamic=true')).toEqual({ status: 200 });
  });

  it('reads several comma-separated preferences in any order, with spaces or without', () => {
    expect(readPreference(getPet, 'example=default,code=200')).toEqual({ status: 200, example: 'default' });
    expect(readPreference(getPet, '  code = 401 ,  example = default  ')).toEqual({
      status: 401,
      example: 'default',
    });
  });

  it('accepts a quoted value and ignores the parameters after a semicolon', () => {
    expect(readPreference(getPet, 'code="404"')).toEqual({ status: 404 });
    expect(readPreference(getPet, 'code=404; strict')).toEqual({ status: 404 });
  });

  it('takes preference names case-insensitively', () => {
    expect(readPreference(getPet, 'Code=404, EXAMPLE=default')).toEqual({ status: 404, example: 'default' });
  });
});
