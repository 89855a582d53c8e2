import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../../src/index.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { createPrismFallback } from '../../../src/node/prism-fallback.js';
import { nothingToRun, mockOptions, type DocumentUnderTest } from '../../support/behaviour-subject.js';
import { kitScenario } from '../../support/kit-scenarios.js';
import { auth, inProcessMock, request, type InProcessMock } from '../../support/start-server.js';

/**
 * The document plus one operation below an item that the model cannot place
 * (a list of something that is no resource of it), so that no handler of the
 * kit's answers it: `GET {item path}/vaccinations`.
 */
function withExtraOperation(document: DocumentUnderTest, itemPath: string, idParameter: string) {
  const grown = loadDocument(document.path);
  const idSchema = structuredClone(
    document.facts
      .resource(document.scenarioCollection)
      .resource.properties.get(document.facts.resource(document.scenarioCollection).idField),
  );
  const path = `${itemPath}/vaccinations`;
  grown.paths[path] = {
    get: {
      operationId: 'listVaccinations',
      summary: 'List the vaccinations of an animal',
      parameters: [{ name: idParameter, in: 'path', required: true, schema: idSchema as OpenAPIV3.SchemaObject }],
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
          description: 'No such item',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
  return grown;
}

/** An operation without a stateful handler, in the mock for Node: Prism answers it, or a 501 says what to install. */
export function prismFallbackSuite(document: DocumentUnderTest): void {
  const r = document.facts.resource(document.scenarioCollection);
  if (!r.itemPathTemplate || !r.idParameter || !r.list) {
    return nothingToRun(`the document has no path of one of its ${r.name} to add an operation below`);
  }
  const itemPath = r.itemPathTemplate;
  const idParameter = r.idParameter;
  const extra = (id: string | number) => `${r.itemPath(id)}/vaccinations`;
  const start = (options: Parameters<typeof inProcessMock>[0] = {}) =>
    inProcessMock({
      ...mockOptions(document, { scenario: 'one-of-each-status' }),
      document: withExtraOperation(document, itemPath, idParameter),
      ...options,
    });
  const held = kitScenario('one-of-each-status').items.map((item) => item[r.idField] as number);
  const first = held[0] as number;

  describe('an operation without a stateful handler', () => {
    let mock: InProcessMock;
    beforeAll(() => {
      mock = start();
    });
    afterAll(() => mock.close());

    it("is answered by Prism's mocker with the documented example", async () => {
      const response = await request(`${mock.baseUrl}${extra(first)}`, { headers: auth });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.body).toEqual([{ vaccine: 'rabies', date: '2026-01-15' }]);
    });

    it('still goes through authentication and request validation first', async () => {
      expect((await request(`${mock.baseUrl}${extra(first)}`)).status).toBe(401);
      const invalid = await request(`${mock.baseUrl}${extra('abc')}`, { headers: auth });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ code: 'invalid_parameter' });
    });

    it('answers a Prefer code without an example with a body Prism generates from the schema, validated', async () => {
      const response = await request(`${mock.baseUrl}${extra(first)}`, { headers: { ...auth, Prefer: 'code=404' } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    });

    it('leaves the stateful operations to their handlers', async () => {
      const response = await request<Array<Record<string, unknown>>>(`${mock.baseUrl}${r.collectionPath}`, {
        headers: auth,
      });
      expect(response.body.map((item) => item[r.idField])).toEqual(held);
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
    beforeAll(() => {
      mock = start({ logger, fallback: (compiled) => createPrismFallback(compiled.document, logger, notInstalled) });
    });
    afterAll(() => mock.close());

    it('answers 501 not_implemented naming the operation and what to install, not a crash', async () => {
      const response = await request<{ code: string; message: string; status: number }>(
        `${mock.baseUrl}${extra(first)}`,
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
      const handled = r.read ? r.itemPath(first) : r.collectionPath;
      expect((await request(`${mock.baseUrl}${handled}`, { headers: auth })).status).toBe(200);
      expect(
        warnings.filter((message) => message.includes('npm install --save-dev @stoplight/prism-http@5')),
      ).toHaveLength(1);
    });
  });
}
