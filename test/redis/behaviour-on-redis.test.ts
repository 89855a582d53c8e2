import { afterAll, it } from 'vitest';
import { onRedis, stopRedisTransport } from '../support/behaviour-subject.js';
import { requireRedisServer } from '../support/redis-server.js';
import { sampledDocuments } from '../evolution/support/documents-under-test.js';
import { runBehaviourSuites } from '../evolution/support/run-behaviour-suites.js';

// The kit's behaviour suites (test/api's, which read every path, parameter and field from the document) with the
// mock's state on a Redis server, as replicas keep it: what they show through mock.fetch, the CLI and MSW over the
// memory store holds over the shared one too. Over the sample of documents the CLI and MSW run (sampledDocuments:
// the kit's own, then one document for each shape of resource, a second resource among them); a document left
// out (a renamed collection of the kit's shape) is run over mock.fetch, which runs them all.
afterAll(stopRedisTransport);

it('has a Redis server to run against (CI must)', () => requireRedisServer());

for (const document of sampledDocuments) runBehaviourSuites(document, onRedis);
