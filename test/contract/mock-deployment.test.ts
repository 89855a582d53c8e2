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

// Until the core rewrite makes the mock handle int64 exactly, the suite's int64 probes fail against it
// (ids and categoryIds beyond 2^53 refused with 400, 1.0 taken for an integer): this test is meant to
// fail for those checks only, and to pass again once the mock is fixed. See docs/contract-checks.md.
describe("the project's mock as the deployment under test", { timeout: 90_000 }, () => {
  it('passes every check of the vitest contract suite', async () => {
    const result = await runRunner('contract', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped in \d+\.\d s$/m);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
  });

  it('passes every Dredd transaction', async () => {
    const result = await runRunner('dredd', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
  });
});
