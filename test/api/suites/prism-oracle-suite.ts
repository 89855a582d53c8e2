import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/node/load-document.js';
import { nothingToRun, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, fetchAny, jsonAuth } from '../../support/start-server.js';

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

interface Sample {
  name: string;
  operationId: string;
  path: string;
  status: number;
  /** Sent without a key. */
  anonymous?: boolean;
  /** Reads an item the scenario holds. */
  seeded?: boolean;
  init?: RequestInit;
}

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

/** Prism's validator, which shares no code with the kit, as an oracle of every documented status of the resource. */
export function prismOracleSuite(subject: Subject): void {
  const r = subject.resource;
  const { list, create, read } = r;
  if (!list) return nothingToRun(`the document has no list of ${r.name}`);
  const state = r.state;
  const optional = r.writable.find((field) => !r.required.some((required) => required.name === field.name));

  /** Requests that together exercise every documented status of the resource's operations. */
  const samples: Sample[] = [
    { name: 'the default page', status: 200, operationId: list.operationId, path: r.collectionPath },
    ...(state && r.page
      ? [
          {
            name: `a full page of ${state.values.at(-1)} ${r.name}`,
            status: 200,
            operationId: list.operationId,
            path: `${r.collectionPath}?${state.name}=${state.values.at(-1)}&${r.page.name}=${r.page.maximum}`,
          },
          {
            name: `one ${state.values[1]} ${r.itemName}`,
            status: 200,
            operationId: list.operationId,
            path: `${r.collectionPath}?${state.name}=${state.values[1]}&${r.page.name}=1`,
          },
        ]
      : []),
    {
      name: 'a list without a key',
      status: 401,
      operationId: list.operationId,
      path: r.collectionPath,
      anonymous: true,
    },
    ...(create
      ? [
          {
            name: `a created ${r.itemName}`,
            status: 201,
            operationId: create.operationId,
            path: r.collectionPath,
            init: { method: 'POST', body: JSON.stringify(r.newItem(state ? { [state.name]: state.values[1] } : {})) },
          },
          ...(optional
            ? [
                {
                  name: `a created ${r.itemName} without ${optional.name}`,
                  status: 201,
                  operationId: create.operationId,
                  path: r.collectionPath,
                  init: { method: 'POST', body: JSON.stringify(r.newItem()) },
                },
              ]
            : []),
          {
            name: `an invalid new ${r.itemName}`,
            status: 400,
            operationId: create.operationId,
            path: r.collectionPath,
            init: { method: 'POST', body: JSON.stringify({ [r.text?.name ?? 'name']: 1 }) },
          },
        ]
      : []),
    ...(read
      ? [
          {
            name: `one of the ${r.name}`,
            status: 200,
            operationId: read.operationId,
            path: r.itemPath(3),
            seeded: true,
          },
          { name: `a missing ${r.itemName}`, status: 404, operationId: read.operationId, path: r.itemPath(987654) },
          {
            name: 'the documented 404 example',
            status: 404,
            operationId: read.operationId,
            path: r.itemPath(1),
            init: { headers: { ...auth, Prefer: 'code=404' } },
            seeded: true,
          },
        ]
      : []),
  ];

  describe("Prism's validator as an independent oracle", () => {
    let target: Target;
    let operations: Operations;
    beforeAll(async () => {
      target = await subject.start();
      operations = await getHttpOperationsFromSpec(loadDocument(subject.document.path));
    });
    afterAll(() => target.close());

    const check = async ({ operationId, path, init, status, anonymous }: Sample) => {
      const headers = init?.headers ?? (init?.method === 'POST' ? jsonAuth : anonymous ? {} : auth);
      const response = await fetchAny(`${target.baseUrl}${path}`, { ...init, headers });
      const body = await response.json();
      expect(response.status).toBe(status);
      expect(prismErrors(operations, operationId, response.status, response.headers, body)).toEqual([]);
    };
    const title = 'finds nothing wrong with $name ($status)';
    it.each(samples.filter((sample) => !sample.seeded))(title, check);
    it.each(samples.filter((sample) => sample.seeded))(title, check);

    it('does catch a response that breaks the document, so its silence above means something', async () => {
      const shown = read ?? list;
      const response = await fetchAny(`${target.baseUrl}${read ? r.itemPath(1) : r.collectionPath}`, {
        headers: auth,
      });
      const body = (await response.json()) as Record<string, unknown> | Array<Record<string, unknown>>;
      const one = Array.isArray(body) ? (body[0] as Record<string, unknown>) : body;
      const broken = { ...one, [r.idField]: 'one', ...(state ? { [state.name]: 'lost' } : {}) };
      const errors = prismErrors(operations, shown.operationId, 200, response.headers, read ? broken : [broken]);
      expect(errors.length).toBeGreaterThan(0);
    });
  });
}
