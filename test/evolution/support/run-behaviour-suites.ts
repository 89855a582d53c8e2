import { describe } from 'vitest';
import { behaviourSuites, documentWideSuites } from '../../api/suites/behaviour-suites.js';
import { subjectOf, type DocumentUnderTest, type Transport } from '../../support/behaviour-subject.js';

/**
 * Registers every behaviour suite of test/api over each resource of one
 * document, through one transport, under a describe naming them. Where the
 * transport cannot serve the document at all, the whole block is a skip
 * whose title says why; a test the subject cannot run is a skip saying why.
 */
export function runBehaviourSuites(document: DocumentUnderTest, transport: Transport): void {
  for (const [index, resource] of document.facts.resources.entries()) {
    const subject = subjectOf(document, transport, resource.name);
    const why = subject.cannot({});
    const title = `the kit's behaviour over ${document.title}, its ${resource.name}, through ${transport.name}`;
    describe.skipIf(why !== undefined)(`${title}${why === undefined ? '' : ` (skipped: ${why})`}`, () => {
      for (const [name, suite] of behaviourSuites) describe(name, () => suite(subject));
      if (index === 0) for (const [name, suite] of documentWideSuites) describe(name, () => suite(subject));
    });
  }
}
