import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { startServer, type RunningServer } from '../support/start-server.js';
import { runRunner } from './support/run-runner.js';

const token = 'mock-secret-5a8e13';
let mock: RunningServer;
let baseUrl: string;

beforeAll(async () => {
  mock = await startServer(createNodeListener(createNodeMock({ keys: [token] })));
  baseUrl = mock.baseUrl;
});

afterAll(() => mock.close());

// The suite's int64 probes (ids beyond 2^53, 1.0 refused as an integer) hold against the mock too.
describe("the project's mock as the deployment under test", { timeout: 90_000 }, () => {
  it('passes every check of the vitest contract suite', async () => {
    const result = await runRunner('contract', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped in \d+\.\d s$/m);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
  });

  it('passes the whole suite twice at once, in two sessions, as two parallel workers would', async () => {
    // Each worker creates, lists and checks its own pets; a pet or a page that crossed sessions fails it.
    const [first, second] = await Promise.all(
      ['worker-1', 'worker-2'].map((session) =>
        runRunner('contract', ['--base-url', baseUrl, '--token', token, '--header', `Petstore-Session: ${session}`]),
      ),
    );
    for (const result of [first, second]) {
      expect(result?.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped in \d+\.\d s$/m);
      expect(result?.code).toBe(0);
    }
    const sessions = await fetch(`${baseUrl.replace(/\/v1$/, '')}/__admin/sessions`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const names = ((await sessions.json()) as { sessions: { name: string }[] }).sessions.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['worker-1', 'worker-2']));
  });

  it('passes every Dredd transaction', async () => {
    const result = await runRunner('dredd', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
  });
});
