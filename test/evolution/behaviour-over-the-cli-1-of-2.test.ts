import { afterAll } from 'vitest';
import { asTheCli, stopClis } from '../support/cli-transport.js';
import { sampledPart } from './support/documents-under-test.js';
import { runBehaviourSuites } from './support/run-behaviour-suites.js';

// The kit's behaviour suites through the built CLI over a socket (`petstore-mock --document FILE`, a flag for each
// option), as users run it. Over a sample of the documents the kit is tried against, one of each shape of
// resource (sampledDocuments, checked in behaviour-behind-msw.test.ts), cut into two files that run side by side
// (this is part 1; the parts together hold every sampled document: behaviour-behind-msw.test.ts checks that too).
// mock.fetch runs every document, and mock-behaviour.test.ts acts each document's lifecycle out through the CLI.
afterAll(stopClis);
for (const document of sampledPart(1, 2)) runBehaviourSuites(document, asTheCli);
