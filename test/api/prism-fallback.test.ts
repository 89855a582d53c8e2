import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { auth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

/** The shipped document plus one operation that has no stateful handler. */
function documentWithExtraOperation(): OpenAPIV3.Document {
  const document = loadDocument(defaultDocumentPath);
  document.paths['/pets/{petId}/vaccinations'] = {
    get: {
      operationId: 'listVaccinations',
      summary: 'List the vaccinations of an animal',
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      responses: {
        '200': {
          description: 'The vaccinations',
          content: {
            'application/json': {
              schema: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['vaccine', 'date'],
                  properties: { vaccine: { type: 'string' }, date: { type: 'string', format: 'date' } },
                },
              },
              example: [{ vaccine: 'rabies', date: '2026-01-15' }],
            },
          },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '404': {
          description: 'No such pet',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
  return document;
}

describe('an operation without a stateful handler', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ document: documentWithExtraOperation() });
  });
  afterAll(() => mock.close());

  it("is answered by Prism's mocker with the documented example", async () => {
    const response = await request(`${mock.baseUrl}/pets/1/vaccinations`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual([{ vaccine: 'rabies', date: '2026-01-15' }]);
  });

  it('still goes through authentication and request validation first', async () => {
    expect((await request(`${mock.baseUrl}/pets/1/vaccinations`)).status).toBe(401);
    const invalid = await request(`${mock.baseUrl}/pets/abc/vaccinations`, { headers: auth });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'invalid_parameter' });
  });

  it('answers a Prefer code without an example with a body Prism generates from the schema, validated', async () => {
    const response = await request(`${mock.baseUrl}/pets/1/vaccinations`, { headers: { ...auth, Prefer: 'code=404' } });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('leaves the stateful operations to their handlers', async () => {
    const response = await request<Array<{ id: number }>>(`${mock.baseUrl}/pets?limit=3`, { headers: auth });
    expect(response.body.map((pet) => pet.id)).toEqual([1, 2, 3]);
  });
});
