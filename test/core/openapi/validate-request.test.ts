import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { createAdminDocument } from '../../../src/core/admin/admin-document.js';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { compileDocument, type CompiledOperation } from '../../../src/core/openapi/compile-document.js';
import { validateRequest } from '../../../src/core/openapi/validate-request.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { caught } from '../../support/caught.js';

const kit = compileDocument(defaultDocument, 'openapi.yaml');
const admin = compileDocument(createAdminDocument(defaultDocument.components?.schemas ?? {}, ['pets']), 'admin API');

/** A document whose one operation requires a header parameter and a body, and takes an optional query one. */
const strict: OpenAPIV3.Document = {
  openapi: '3.0.3',
  info: { title: 'strict', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'addNote',
        parameters: [
          { name: 'x-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 2 } },
          { name: 'dry', in: 'query', schema: { type: 'boolean' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['text'] } } },
        },
        responses: { '204': { description: 'added' } },
      },
    },
  },
  components: { schemas: { Error: defaultDocument.components?.schemas?.Error as OpenAPIV3.SchemaObject } },
};
const addNote = compileDocument(strict, 'strict.yaml').byId.get('addNote') as CompiledOperation;
const json = (text: string) => new TextEncoder().encode(text);

const refusal = (operation: CompiledOperation, raw: Partial<Parameters<typeof validateRequest>[1]>) =>
  caught(
    HttpError,
    () => validateRequest(operation, { pathParams: {}, search: '', headers: {}, body: undefined, ...raw }),
    'the request',
  );

describe('validateRequest', () => {
  it('finds every location of the kit and admin operations that requires nothing valid when empty, as it reads none', () => {
    const locations = ['path', 'query', 'header'] as const;
    const operations = [...kit.byId.values(), ...admin.byId.values()];
    const unrequired = operations.flatMap((operation) =>
      locations
        .filter((location) => !operation.parameters.some((p) => p.in === location && p.required))
        .map((location) => ({
          operation: operation.operationId,
          location,
          valid: operation.parameterValidators[location]({}),
        })),
    );
    expect(unrequired.length).toBeGreaterThan(operations.length);
    expect(unrequired.filter((each) => !each.valid)).toEqual([]);
  });

  it('still refuses a missing required header parameter, with no other value sent for it', () => {
    const error = refusal(addNote, { headers: { 'content-type': 'application/json' }, body: json('{"text":"a"}') });
    expect(error.code).toBe('invalid_parameter');
    expect(error.details).toEqual([
      expect.objectContaining({ location: 'header', field: 'x-tenant', message: 'is required' }),
    ]);
  });

  it('still checks a header parameter sent, and a query parameter sent where none is required', () => {
    const error = refusal(addNote, {
      search: 'dry=maybe',
      headers: { 'x-tenant': 'a', 'content-type': 'application/json' },
      body: json('{"text":"a"}'),
    });
    expect(error.details?.map((detail) => `${detail.location} ${detail.field}`).sort()).toEqual([
      'header x-tenant',
      'query dry',
    ]);
  });

  it('refuses a request without the body its operation requires, and a body sent to an operation that takes none', () => {
    expect(refusal(addNote, { headers: { 'x-tenant': 'ab' } }).code).toBe('body_required');
    const listPets = kit.byId.get('listPets') as CompiledOperation;
    expect(refusal(listPets, { body: json('{}') }).code).toBe('unexpected_body');
  });

  it('gives a read without parameters or body its defaults and no body', () => {
    const listPets = kit.byId.get('listPets') as CompiledOperation;
    const valid = validateRequest(listPets, { pathParams: {}, search: '', headers: {}, body: undefined });
    expect(valid).toEqual({ path: {}, query: { limit: 20 }, header: {}, body: undefined });
  });
});
