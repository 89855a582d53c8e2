import { afterAll, it } from 'vitest';
import { onRedis, stopRedisTransport } from '../support/behaviour-subject.js';
import { requireRedisServer } from '../support/redis-server.js';
import { documentsUnderTest } from '../evolution/support/documents-under-test.js';
import { runBehaviourSuites } from '../evolution/support/run-behaviour-suites.js';

// The kit's behaviour suites (test/api's, which read every path, parameter and field from the document) over
// the kit's document and each of test/evolution's, with the mock's state on a Redis server, as replicas keep it:
// what they show through mock.fetch, the CLI and MSW over the memory store holds over the shared one too.
afterAll(stopRedisTransport);

it('has a Redis server to run against (CI must)', () => requireRedisServer());

for (const document of documentsUnderTest) runBehaviourSuites(document, onRedis);
