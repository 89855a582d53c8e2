import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy.js';
import { startMock, startServer, type RunningServer } from '../support/start-server.js';
import { type DocumentName, documents, fetching, lifecycles } from './support/lifecycles.js';

// The validating proxy judges by the document it is given: in front of the kit's mock serving the same
// document, a scripted session (each document's lifecycle) gives no failing finding.

const started: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/** The client's requests each lifecycle makes that the document does not allow, by the rule that names them. */
const refusedRequests: Record<DocumentName, string[]> = {
  kit: ['request-operation'],
  'with-replace-and-delete': ['request-body'],
  'without-get-pet': ['request-operation'],
  'with-categories': ['request-body', 'request-body'],
  'renamed-to-animals': ['request-operation', 'request-operation'],
};

describe.each(Object.keys(documents) as DocumentName[])(
  'the proxy in front of the mock, for the %s document',
  (name) => {
    it('finds nothing failing in a scripted session, and sees every exchange', async () => {
      const path = documents[name];
      const mock = await startMock({ document: path, keys: ['dev-key'] });
      started.push(mock);
      const proxy = createProxy({ upstream: mock.baseUrl, document: path, settleMs: 500 });
      const server = await startServer(proxy.listener);
      started.push(server);
      const send = fetching(server.baseUrl);
      let sent = 0;
      await lifecycles[name]((...request) => {
        sent += 1;
        return send(...request);
      });
      const report = proxy.report.toJson();
      expect(report.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
      expect(report.client.findings.filter((found) => found.level === 'fail').map((found) => found.rule)).toEqual(
        refusedRequests[name],
      );
      expect(report.failed).toBe(false);
      expect(report.exchanges).toBe(sent);
    });
  },
);
