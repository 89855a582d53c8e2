import { describe } from 'vitest';
import { documentSuites } from '../api/suites/behaviour-suites.js';
import { inProcess } from '../support/behaviour-subject.js';
import { documentsUnderTest } from './support/documents-under-test.js';
import { runBehaviourSuites } from './support/run-behaviour-suites.js';

// The kit's behaviour suites (test/api's, which read every path, parameter and field from the document) over
// each document the kit is tried against, in-process through mock.fetch, and the suites that build mocks of
// their own from a changed copy of each document.
for (const document of documentsUnderTest) {
  runBehaviourSuites(document, inProcess);
  describe(`the mock built from a copy of ${document.title}`, () => {
    for (const [name, suite] of documentSuites) describe(name, () => suite(document));
  });
}
