import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/create-mock.js';
import { createMockHandlers } from '../../src/msw.js';
import { loadDocument } from '../../src/node/load-document.js';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { answerOf, type DocumentName, documents, fetching, headers, lifecycles } from './support/lifecycles.js';

// The mock's behaviour follows the document it serves, with no code of its own per operation: the same
// lifecycle passes through mock.fetch, the CLI and MSW for the kit's document, for one with PUT and DELETE on
// an animal added, and for one without getPet.

afterEach(() => killRunningClis());

describe.each(Object.keys(documents) as DocumentName[])('the mock serving the %s document', (name) => {
  const path = documents[name];

  it('acts the lifecycle out through mock.fetch', async () => {
    const mock = createMock({ document: loadDocument(path) });
    await mock.ready;
    await lifecycles[name](async (method, target, body) =>
      answerOf(
        await mock.fetch(
          new Request(`http://mock.test/v1${target}`, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        ),
      ),
    );
  });

  it('acts the lifecycle out through the CLI, started with --document', async () => {
    const cli = startCli(['--port', '0', '--document', path, '--log-level', 'warn']);
    const base = await waitForBanner(cli);
    expect(cli.stdout()).toContain(`mocked from ${path}`);
    await lifecycles[name](fetching(base));
  });

  describe('through MSW', () => {
    const handlers = createMockHandlers({ baseUrl: 'https://api.example.test/v1', document: loadDocument(path) });
    const server = setupServer(...handlers);
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it('acts the lifecycle out through setupServer', async () => {
      await handlers.mock.ready;
      await lifecycles[name](fetching('https://api.example.test/v1'));
    });
  });
});
