import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createMockHandlers } from '../../src/msw.js';
import { universalMockOptions, type Transport } from './behaviour-subject.js';

/**
 * The mock as MSW 2 handlers (`createMockHandlers`) behind `setupServer`:
 * the test's `fetch` is answered by them. Each mock gets an origin of its
 * own (`https://mock-N.msw.test/v1`), so several live side by side. Call it
 * at the top of a test file: it listens before the file's tests and closes
 * after them, and refuses any request no mock answers.
 */
export function behindMsw(): Transport {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  let count = 0;
  return {
    name: 'MSW',
    universal: true,
    cannot(needs) {
      if (needs.raw) return 'raw requests need a socket';
      if (needs.scenarioFile) return 'the universal mock reads no files';
      if (needs.pages) return 'its handlers answer the API and the admin API only';
      if (needs.hangs)
        return 'its handlers answer an injected timeout with a network error at once (HttpResponse.error())';
      return undefined;
    },
    async start(document, options) {
      const origin = `https://mock-${++count}.msw.test`;
      // The universal mock (no file system, no zlib, no Prism): the document as an object, the pages left out.
      const handlers = createMockHandlers({ ...universalMockOptions(document, options), baseUrl: `${origin}/v1` });
      server.use(...handlers);
      await handlers.mock.ready;
      return { origin, baseUrl: `${origin}/v1`, mock: handlers.mock, raw: undefined, close: async () => undefined };
    },
  };
}
