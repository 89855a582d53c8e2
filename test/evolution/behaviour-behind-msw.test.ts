import { describe, expect, it } from 'vitest';
import { kitDocument } from '../support/behaviour-subject.js';
import { behindMsw } from '../support/msw-transport.js';
import { documentsUnderTest, sampledDocuments, sampledPart, shapeOf } from './support/documents-under-test.js';
import { runBehaviourSuites } from './support/run-behaviour-suites.js';

// The kit's behaviour suites through MSW 2's setupServer and the kit's handlers (createMockHandlers): the
// universal mock, as a frontend's tests run it. Over a sample of the documents the kit is tried against, one of
// each shape of resource (sampledDocuments); mock.fetch runs every document.
const msw = behindMsw();
for (const document of sampledDocuments) runBehaviourSuites(document, msw);

describe('the sample of documents behind MSW', () => {
  it('holds a resource of every shape the documents under test hold, the kit’s own document first', () => {
    const shapes = (documents: typeof documentsUnderTest) =>
      new Set(documents.flatMap((document) => document.facts.resources.map((resource) => shapeOf(resource))));
    expect(sampledDocuments[0]?.kit).toBe(true);
    expect(shapes(sampledDocuments)).toEqual(shapes(documentsUnderTest));
    expect(sampledDocuments.length).toBeLessThan(documentsUnderTest.length);
  });

  it('is cut into parts (the CLI’s files) that hold each sampled document once, every part some', () => {
    const parts = [sampledPart(1, 2), sampledPart(2, 2)];
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    expect(
      parts
        .flat()
        .map((document) => document.name)
        .sort(),
    ).toEqual(sampledDocuments.map((document) => document.name).sort());
  });
});

describe('a body over the limit, through MSW', () => {
  // MSW keeps a clone of the request, so the handlers read one branch of a tee'd body; cancelling a branch settles
  // only once both are cancelled, and the fetch adapter no longer waits for that before answering 413.
  it('answers 413 payload_too_large to a body one byte over the limit, as mock.fetch does', async () => {
    const target = await msw.start(kitDocument, {});
    const resource = kitDocument.facts.resource(kitDocument.scenarioCollection);
    const mock = target.mock as NonNullable<typeof target.mock>;
    const before = mock.store.collection(resource.name).size;
    const response = await fetch(`${target.baseUrl}${resource.collectionPath}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test-key', 'Content-Type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(mock.store.collection(resource.name).size).toBe(before);
  });

  it('answers 413 to a streamed body over the limit too, without reading it to its end', async () => {
    const target = await msw.start(kitDocument, {});
    const resource = kitDocument.facts.resource(kitDocument.scenarioCollection);
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${target.baseUrl}${resource.collectionPath}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test-key', 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(pulled).toBeGreaterThan(16);
  });
});
