import { documentUnderTest, kitDocument, type DocumentUnderTest } from '../../support/behaviour-subject.js';
import type { ResourceFacts } from '../../support/document-facts.js';
import { evolvedDocumentPath, evolvedDocuments } from './evolved-documents.js';

/**
 * Every document the kit's behaviour suites run over: the kit's own
 * openapi.yaml and each document of test/evolution/documents/.
 */
export const documentsUnderTest: DocumentUnderTest[] = [
  kitDocument,
  ...evolvedDocuments.map((name) => documentUnderTest(name, evolvedDocumentPath(name), `${name}.yaml`)),
];

/** What the behaviour suites see of a resource: its operation kinds, whether it refers to another, its state field. */
export function shapeOf(resource: ResourceFacts): string {
  const kinds = (['list', 'create', 'read', 'replace', 'update', 'delete'] as const).filter((kind) => resource[kind]);
  return [
    ...kinds,
    ...(resource.references.length > 0 ? ['references'] : []),
    ...(resource.state ? ['state'] : []),
  ].join(' ');
}

/**
 * The documents the transports beside mock.fetch (the CLI, MSW) run the behaviour suites over, a sample:
 * the kit's own, then each document with a resource of a shape (`shapeOf`) that no document before it has.
 * Every suite still runs on each transport over every shape of resource the documents hold; a document
 * left out (a renamed collection of the kit's shape) is run over mock.fetch, which runs them all.
 */
export const sampledDocuments: DocumentUnderTest[] = documentsUnderTest.filter((document, index) => {
  const earlier = new Set(
    documentsUnderTest.slice(0, index).flatMap((other) => other.facts.resources.map((resource) => shapeOf(resource))),
  );
  return document.kit || document.facts.resources.some((resource) => !earlier.has(shapeOf(resource)));
});

/**
 * Part `part` of `of` of the sampled documents (every `of`-th, from the `part`-th): the transports that run the
 * suites one request after another over a socket (the CLI) cut their runs into files that run side by side.
 */
export function sampledPart(part: number, of: number): DocumentUnderTest[] {
  return sampledDocuments.filter((_document, index) => index % of === part - 1);
}
