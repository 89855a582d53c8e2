import type { OpenAPIV3 } from 'openapi-types';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { auth, jsonAuth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

/** A document whose Pet needs a `tag` the store's pets do not have: every pet the mock sends then breaks it. */
function documentRequiringTag(): OpenAPIV3.Document {
  const document = loadDocument(defaultDocumentPath);
  const pet = document.components?.schemas?.Pet as OpenAPIV3.SchemaObject;
  pet.allOf?.push({ type: 'object', required: ['tag'], properties: { tag: { type: 'string' } } });
  return document;
}

describe('response validation', () => {
  let mock: InProcessMock;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    // The shipped fixtures would (rightly) fail the stricter Pet at start-up: give this mock an empty one.
    const fixturesDir = mkdtempSync(join(tmpdir(), 'petstore-fixtures-'));
    writeFileSync(join(fixturesDir, 'empty.yaml'), 'description: nothing\npets: []\n');
    mock = await inProcessMock({
      document: documentRequiringTag(),
      fixturesDir,
      scenario: 'empty',
      logger: pino({ level: 'error' }, sink),
    });
  });
  afterAll(() => mock.close());

  it('answers 500 invalid_response naming the violation instead of sending a response that breaks the document', async () => {
    const response = await request<{
      code: string;
      message: string;
      status: number;
      details: Array<{ field: string }>;
    }>(`${mock.baseUrl}/pets`, { method: 'POST', headers: jsonAuth, body: '{"name":"Rex","categoryId":1}' });
    expect(response.status).toBe(500);
    expect(response.body.code).toBe('invalid_response');
    expect(response.body.message).toContain('createPet 201');
    expect(response.body.message).toContain("'tag'");
    expect(response.body.details.map((detail) => detail.field)).toContain('tag');
    expect(response.text).not.toContain('"Rex"');
  });

  it('refuses the same invalid page every time it is asked for: an invalid response is never cached', async () => {
    // The pet created above breaks the stricter Pet; listing it must fail on every request, not just the first.
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await request<{ code: string }>(`${mock.baseUrl}/pets`, { headers: auth });
      expect(response.status).toBe(500);
      expect(response.body.code).toBe('invalid_response');
    }
  });

  it('logs the violation', () => {
    expect(lines.some((line) => line.includes('response breaks the document') && line.includes('createPet'))).toBe(
      true,
    );
  });

  it('lets conforming responses through on the same document', async () => {
    // No pending pet exists, so the page is empty and conforms; the pet created above has no status.
    const response = await request(`${mock.baseUrl}/pets?status=pending`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});
