import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../src/create-mock.js';
import { createMockHandlers } from '../../src/msw.js';
import { loadDocument } from '../../src/node/load-document.js';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { answerOf, type DocumentName, documents, fetching, headers, lifecycles } from './support/lifecycles.js';

// The mock's behaviour follows the document it serves, with no code of its own per operation: the same
// lifecycle passes through mock.fetch, the CLI and MSW, each serving the document with the kit's own scenarios,
// for the kit's document, one with PUT and DELETE on an animal, one without getPet, one with a second resource
// (categories) and PATCH and DELETE on an animal, and one with the animals' collection renamed.

afterEach(() => killRunningClis());

describe('through MSW', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  describe.each(Object.keys(documents) as DocumentName[])('the mock serving the %s document', (name) => {
    it('acts the lifecycle out through setupServer', async () => {
      const baseUrl = `https://${name}.api.example.test/v1`;
      const handlers = createMockHandlers({ baseUrl, document: loadDocument(documents[name]) });
      server.use(...handlers);
      await handlers.mock.ready;
      await lifecycles[name](fetching(baseUrl));
    });
  });
});

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
});
