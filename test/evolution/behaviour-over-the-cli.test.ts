import { afterAll } from 'vitest';
import { asTheCli, stopClis } from '../support/cli-transport.js';
import { documentsUnderTest } from './support/documents-under-test.js';
import { runBehaviourSuites } from './support/run-behaviour-suites.js';

// The kit's behaviour suites over each document the kit is tried against, through the built CLI over a
// socket (`petstore-mock --document FILE`, a flag for each option), as users run it.
afterAll(stopClis);
for (const document of documentsUnderTest) runBehaviourSuites(document, asTheCli);
