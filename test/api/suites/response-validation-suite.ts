import { Writable } from 'node:stream';
import type { OpenAPIV3 } from 'openapi-types';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/node/load-document.js';
import { nothingToRun, mockOptions, type DocumentUnderTest } from '../../support/behaviour-subject.js';
import { auth, inProcessMock, jsonAuth, request, type InProcessMock } from '../../support/start-server.js';
import { referredId } from '../../support/document-facts.js';

/** The document with its items' schema asking for a `tag` no item has: every item the mock sends then breaks it. */
function requiringTag(document: DocumentUnderTest, pointer: string, idField: string): OpenAPIV3.Document {
  const stricter = loadDocument(document.path);
  const parts = pointer.split('/').slice(1);
  const last = parts.pop() as string;
  const parent = parts.reduce<Record<string, unknown>>(
    (node, part) => node[part] as Record<string, unknown>,
    stricter as unknown as Record<string, unknown>,
  );
  // Named as the id outright: a required text no body sets would otherwise make the id ambiguous.
  parent[last] = {
    allOf: [parent[last], { type: 'object', required: ['tag'], properties: { tag: { type: 'string' } } }],
    'x-petstore-id': idField,
  };
  return stricter;
}

/** A response that breaks the document is the mock's bug: a 500 naming the violation and a log line, never sent. */
export function responseValidationSuite(document: DocumentUnderTest): void {
  const r = document.facts.resource(document.scenarioCollection);
  const { create, state } = r;
  if (!create || !r.resource.itemSchema.startsWith('/')) {
    return nothingToRun(`the document has no create of ${r.name} with a named item schema`);
  }
  const pointer = r.resource.itemSchema;

  describe('response validation', () => {
    let mock: InProcessMock;
    const lines: string[] = [];
    beforeAll(() => {
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      // The kit's scenarios would (rightly) fail the stricter items at start-up: this mock has an empty one only.
      mock = inProcessMock({
        ...mockOptions(document, {}),
        document: requiringTag(document, pointer, r.idField),
        kitFixtures: false,
        // No items but one of each collection the items refer to (the id a new item's reference names).
        fixtures: {
          empty: {
            description: 'nothing',
            [document.scenarioCollection]: [],
            ...Object.fromEntries(
              r.references.map(({ collection }) => {
                const referred = document.facts.resource(collection);
                return [collection, [{ ...referred.newItem(), [referred.idField]: referredId }]];
              }),
            ),
          },
        },
        scenario: 'empty',
        logger: pino({ level: 'error' }, sink),
      });
    });
    afterAll(() => mock.close());

    it('answers 500 invalid_response naming the violation instead of sending a response that breaks the document', async () => {
      const body = r.newItem(r.text ? { [r.text.name]: 'Unsendable' } : {});
      const response = await request<{
        code: string;
        message: string;
        status: number;
        details: Array<{ field: string }>;
      }>(`${mock.baseUrl}${r.collectionPath}`, { method: 'POST', headers: jsonAuth, body: JSON.stringify(body) });
      expect(response.status).toBe(500);
      expect(response.body.code).toBe('invalid_response');
      expect(response.body.message).toContain(`${create.operationId} 201`);
      expect(response.body.message).toContain("'tag'");
      expect(response.body.details.map((detail) => detail.field)).toContain('tag');
      expect(response.text).not.toContain('Unsendable');
    });

    it('refuses the same invalid page every time it is asked for: an invalid response is never cached', async () => {
      // The item created above breaks the stricter schema; listing it must fail on every request, not just the first.
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await request<{ code: string }>(`${mock.baseUrl}${r.collectionPath}`, { headers: auth });
        expect(response.status).toBe(500);
        expect(response.body.code).toBe('invalid_response');
      }
    });

    it('logs the violation', () => {
      expect(
        lines.some((line) => line.includes('response breaks the document') && line.includes(create.operationId)),
      ).toBe(true);
    });

    if (state) {
      it('lets conforming responses through on the same document', async () => {
        // No item has this state, so the page is empty and conforms; the item created above has no state.
        const response = await request(`${mock.baseUrl}${r.collectionPath}?${state.name}=${state.values[1]}`, {
          headers: auth,
        });
        expect(response.status).toBe(200);
        expect(response.body).toEqual([]);
      });
    }
  });
}
