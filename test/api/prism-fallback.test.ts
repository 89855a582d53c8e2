import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { loadDocument } from '../../src/node/load-document.js';
import { createPrismFallback } from '../../src/node/prism-fallback.js';
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

describe('an operation without a handler, where the optional @stoplight/prism-http is not installed', () => {
  const warnings: string[] = [];
  const logger: MockLogger = {
    error: () => undefined,
    warn: (_details, message) => void warnings.push(message ?? ''),
    info: () => undefined,
    debug: () => undefined,
  };
  /** What Node's import() throws for a package that is not installed. */
  const notInstalled = () =>
    Promise.reject(
      Object.assign(new Error("Cannot find package '@stoplight/prism-http'"), { code: 'ERR_MODULE_NOT_FOUND' }),
    );
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({
      document: documentWithExtraOperation(),
      logger,
      fallback: (compiled) => createPrismFallback(compiled.document, logger, notInstalled),
    });
  });
  afterAll(() => mock.close());

  it('answers 501 not_implemented naming the operation and what to install, not a crash', async () => {
    const response = await request<{ code: string; message: string; status: number }>(
      `${mock.baseUrl}/pets/1/vaccinations`,
      { headers: auth },
    );
    expect(response.status).toBe(501);
    expect(response.body).toEqual({
      code: 'not_implemented',
      status: 501,
      message:
        'listVaccinations has no handler of the kit: answering it needs @stoplight/prism-http, an optional peer dependency that is not installed (npm install --save-dev @stoplight/prism-http@5)',
    });
  });

  it('still serves every operation the kit has a handler for, and says once at start what to install', async () => {
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200);
    expect(
      warnings.filter((message) => message.includes('npm install --save-dev @stoplight/prism-http@5')),
    ).toHaveLength(1);
  });
});
