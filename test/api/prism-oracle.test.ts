import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { auth, jsonAuth, inProcessMock, type InProcessMock, fetchAny } from '../support/start-server.js';

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

interface Sample {
  name: string;
  operationId: string;
  path: string;
  status: number;
  init?: RequestInit;
}

/** Requests that together exercise every documented status of every operation. */
const samples: Sample[] = [
  { name: 'the default page', status: 200, operationId: 'listPets', path: '/pets' },
  { name: 'a full page of sold pets', status: 200, operationId: 'listPets', path: '/pets?status=sold&limit=100' },
  { name: 'one pending pet', status: 200, operationId: 'listPets', path: '/pets?status=pending&limit=1' },
  { name: 'a list without a key', status: 401, operationId: 'listPets', path: '/pets' },
  {
    name: 'a created pet',
    status: 201,
    operationId: 'createPet',
    path: '/pets',
    init: { method: 'POST', body: '{"name":"Rex","categoryId":2,"status":"pending"}' },
  },
  {
    name: 'a created pet without status',
    status: 201,
    operationId: 'createPet',
    path: '/pets',
    init: { method: 'POST', body: '{"name":"Max","categoryId":3}' },
  },
  {
    name: 'an invalid new pet',
    status: 400,
    operationId: 'createPet',
    path: '/pets',
    init: { method: 'POST', body: '{"name":1}' },
  },
  { name: 'a pet', status: 200, operationId: 'getPet', path: '/pets/3' },
  { name: 'a missing pet', status: 404, operationId: 'getPet', path: '/pets/987654' },
  {
    name: 'the documented 404 example',
    status: 404,
    operationId: 'getPet',
    path: '/pets/1',
    init: { headers: { ...auth, Prefer: 'code=404' } },
  },
];

/** Prism's own verdict on one response: the messages of its error-level diagnostics. */
function prismErrors(
  operations: Operations,
  operationId: string,
  status: number,
  headers: Headers,
  body: unknown,
): string[] {
  const resource = operations.find((operation) => operation.iid === operationId || operation.id === operationId);
  if (!resource) throw new Error(`Prism has no operation ${operationId}`);
  const verdict = validateOutput({
    resource,
    element: { statusCode: status, headers: Object.fromEntries(headers.entries()), body },
  });
  if (verdict._tag === 'Right') return [];
  return verdict.left.filter((diagnostic) => diagnostic.severity === 0).map((diagnostic) => diagnostic.message);
}

describe("Prism's validator as an independent oracle", () => {
  let mock: InProcessMock;
  let operations: Operations;
  beforeAll(async () => {
    mock = await inProcessMock();
    operations = await getHttpOperationsFromSpec(loadDocument(defaultDocumentPath));
  });
  afterAll(() => mock.close());

  it.each(samples)('finds nothing wrong with $name ($status)', async ({ operationId, path, init, name, status }) => {
    const withoutKey = name.includes('without a key');
    const headers = init?.headers ?? (init?.method === 'POST' ? jsonAuth : withoutKey ? {} : auth);
    const response = await fetchAny(`${mock.baseUrl}${path}`, { ...init, headers });
    const body = await response.json();
    expect(response.status).toBe(status);
    expect(prismErrors(operations, operationId, response.status, response.headers, body)).toEqual([]);
  });

  it('does catch a response that breaks the document, so its silence above means something', async () => {
    const response = await fetchAny(`${mock.baseUrl}/pets/1`, { headers: auth });
    const pet = (await response.json()) as Record<string, unknown>;
    const errors = prismErrors(operations, 'getPet', 200, response.headers, { ...pet, status: 'lost', id: 'one' });
    expect(errors.length).toBeGreaterThan(0);
  });
});
