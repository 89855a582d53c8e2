import { describe, expect, it } from 'vitest';
import { kitDocument } from '../support/behaviour-subject.js';
import { behindMsw } from '../support/msw-transport.js';
import { documentsUnderTest, sampledDocuments, shapeOf } from './support/documents-under-test.js';
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
});

describe('a body over the limit, through MSW', () => {
  // Known failure (msw 2.15, Node 20): the universal mock answers 413 through mock.fetch (test/api's universal
  // content-encoding suite), but through setupServer and the kit's handlers the fetch never settles. When it
  // does, this test fails: turn it into a plain `it` and drop the `bodyOverLimit` skip of msw-transport.ts.
  it.fails(
    'answers 413 payload_too_large to a body one byte over the limit, as mock.fetch does',
    async () => {
      const target = await msw.start(kitDocument, {});
      const resource = kitDocument.facts.resource(kitDocument.scenarioCollection);
      const response = await fetch(`${target.baseUrl}${resource.collectionPath}`, {
        method: 'POST',
        headers: { Authorization: 'Bearer test-key', 'Content-Type': 'application/json' },
        body: 'x'.repeat(1024 * 1024 + 1),
      });
      expect(response.status).toBe(413);
    },
    5_000,
  );
});
