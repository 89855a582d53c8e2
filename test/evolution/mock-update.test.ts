import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { createMock } from '../../src/create-mock.js';
import { loadDocument } from '../../src/node/load-document.js';
import { evolvedDocumentPath } from './support/evolved-documents.js';

// A PATCH added to the document is an update (a JSON merge patch) with no code: the fields the body names
// change, the others stay, and an id no animal has is a 404, as for a replace.
function withUpdate(): OpenAPIV3.Document {
  const document = structuredClone(loadDocument(evolvedDocumentPath('with-replace-and-delete')));
  const item = document.paths['/pets/{petId}'] as OpenAPIV3.PathItemObject;
  const replace = item.put as OpenAPIV3.OperationObject;
  const newPet = document.components?.schemas?.NewPet as OpenAPIV3.SchemaObject;
  item.patch = {
    ...structuredClone(replace),
    operationId: 'updatePet',
    summary: 'Change some fields of an animal',
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: structuredClone(newPet.properties), additionalProperties: false },
        },
      },
    },
  };
  return document;
}

const headers = { authorization: 'Bearer dev-key', 'content-type': 'application/json' };

describe('the mock serving a document with a PATCH on an animal', () => {
  it('changes only the fields the body names, keeps them for later reads, and answers 404 for an unknown id', async () => {
    const mock = createMock({ document: withUpdate() });
    await mock.ready;
    const call = async (method: string, target: string, body?: unknown) => {
      const answer = await mock.fetch(
        new Request(`http://mock.test/v1${target}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const created = await call('POST', '/pets', { name: 'Tom', categoryId: 1, status: 'available' });
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    const patched = await call('PATCH', `/pets/${id}`, { name: 'Tomasz' });
    expect(patched).toEqual({ status: 200, body: { id, name: 'Tomasz', categoryId: 1, status: 'available' } });
    expect(await call('GET', `/pets/${id}`)).toEqual(patched);

    const unknown = await call('PATCH', '/pets/999999', { name: 'Nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'pet_not_found', status: 404 });
    expect((await call('PATCH', `/pets/${id}`, { name: 7 })).status).toBe(400);
  });
});
