import type { DocumentUnderTest, Subject } from '../../support/behaviour-subject.js';
import { adminApiSuite } from './admin-api-suite.js';
import { adminStoreSuite } from './admin-store-suite.js';
import { authenticationSuite } from './authentication-suite.js';
import { contentEncodingSuite, universalContentEncodingSuite } from './content-encoding-suite.js';
import { corsSuite } from './cors-suite.js';
import { createItemSuite } from './create-item-suite.js';
import { deprecatedOperationSuite } from './deprecated-operation-suite.js';
import { faultsSuite } from './faults-suite.js';
import { listItemsSuite } from './list-items-suite.js';
import { originsAndHostsSuite } from './origins-and-hosts-suite.js';
import { preferHeaderSuite } from './prefer-header-suite.js';
import { prismFallbackSuite } from './prism-fallback-suite.js';
import { prismOracleSuite } from './prism-oracle-suite.js';
import { publicEndpointsSuite } from './public-endpoints-suite.js';
import { readItemSuite } from './read-item-suite.js';
import { referencesSuite } from './references-suite.js';
import { responseValidationSuite } from './response-validation-suite.js';
import { seededDataSuite } from './seeded-data-suite.js';
import { sessionNameOverSocketSuite, sessionsSuite } from './sessions-suite.js';
import { storeLimitsSuite } from './store-limits-suite.js';
import { typedControlsSuite } from './typed-controls-suite.js';
import { unspecifiedBehaviourSuite } from './unspecified-behaviour-suite.js';

/**
 * The kit's behaviour suites (test/api's), each run over a subject: a
 * document, a resource of it and a transport. test/api runs them over the
 * kit's document; test/evolution over every document it is tried against,
 * each resource.
 */
export const behaviourSuites: ReadonlyArray<readonly [string, (subject: Subject) => void]> = [
  ['list', listItemsSuite],
  ['create', createItemSuite],
  ['read', readItemSuite],
  ['references', referencesSuite],
  ['deprecation', deprecatedOperationSuite],
  ['authentication', authenticationSuite],
  ['admin API', adminApiSuite],
  ['admin store', adminStoreSuite],
  ['content encoding', contentEncodingSuite],
  ['CORS', corsSuite],
  ['origins and hosts', originsAndHostsSuite],
  ['faults and latency', faultsSuite],
  ['Prefer', preferHeaderSuite],
  ['Prism as oracle', prismOracleSuite],
  ['seeded data', seededDataSuite],
  ['sessions', sessionsSuite],
  ['session names over a socket', sessionNameOverSocketSuite],
  ['store limits', storeLimitsSuite],
  ['typed controls', typedControlsSuite],
  ['unspecified behaviour', unspecifiedBehaviourSuite],
];

/** The suites of what the mock serves whatever the resource: run once a document, over its first resource. */
export const documentWideSuites: ReadonlyArray<readonly [string, (subject: Subject) => void]> = [
  ['public endpoints', publicEndpointsSuite],
];

/** The suites that build mocks of their own from a document (a changed copy, the universal mock), in-process. */
export const documentSuites: ReadonlyArray<readonly [string, (document: DocumentUnderTest) => void]> = [
  ['Prism fallback', prismFallbackSuite],
  ['response validation', responseValidationSuite],
  ['universal content encoding', universalContentEncodingSuite],
];
