import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseContractOptions } from '../../../src/contract/contract-options.js';
import type { ExplorationReport } from '../../../src/contract/explore/exploration-report.js';
import { runContract } from '../../../src/contract/run-contract.js';
import { parseExactJson } from '../../../src/core/json/exact-json.js';
import { createNodeMock } from '../../../src/node/create-node-mock.js';
import { createNodeListener } from '../../../src/node/node-listener.js';
import { startServer } from '../../support/start-server.js';
import { startReferenceServer } from '../support/reference-server.js';

const token = 'explore-check-secret-91b2';
const workDir = mkdtempSync(join(tmpdir(), 'exploration-check-test-'));
const running: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
  rmSync(workDir, { recursive: true, force: true });
});

interface JsonReport {
  operations: Record<string, Array<{ name: string; state: string; errors: string[] }>>;
  exploration: ExplorationReport;
}

/** The whole suite in this process, as `petstore-contract` runs it, with a JSON report. */
async function contract(baseUrl: string, flags: string[], name: string) {
  const jsonFile = join(workDir, `${name}.json`);
  const options = parseContractOptions(['--base-url', baseUrl, '--token', token, '--json', jsonFile, ...flags], {});
  if (typeof options === 'string') throw new Error('no options');
  const lines: string[] = [];
  const code = await runContract(options, { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  const output = lines.join('\n');
  expect(output).not.toContain(token);
  return { code, output, report: parseExactJson(readFileSync(jsonFile, 'utf8')) as JsonReport };
}

describe.concurrent('the exploration in the contract suite', { timeout: 60_000 }, () => {
  it("ends the suite against the kit's mock, passing, with its seed, budget and requests in the summary and the JSON report", async () => {
    const mock = await startServer(createNodeListener(createNodeMock({ keys: [token] })));
    running.push(mock);
    const { code, output, report } = await contract(mock.baseUrl, [], 'mock');
    expect(code).toBe(0);
    expect(output).toMatch(
      /✓ exploration › drives random sequences of listPets, createPet and getPet against a model of what the spec guarantees \(fast-check, seed 20301205, budget 150\)/,
    );
    expect(output).toMatch(
      /Stateful exploration \(fast-check, seed 20301205, budget 150\):\n {2}\d+ sequences, \d+ commands, \d+ requests exploring in [\d.]+ s\n {2}no failure\n {2}the same sequences again: --seed 20301205 --budget 150/,
    );
    expect(report.operations.exploration?.map((result) => result.state)).toEqual(['passed']);
    expect(report.exploration).toMatchObject({ seed: 20301205, budget: 150, outcome: 'passed' });
    // The summary and the JSON report count the same requests. (How much of the budget the run spends is
    // explore-deployment.test.ts's business: there the exploration's time bound is on a clock the test holds, here
    // on the machine's, which a busy machine can run out before the budget.)
    expect(report.exploration.requests.shrinking).toBe(0);
    const [, printed] = /(\d+) requests exploring in/.exec(output) ?? [];
    expect(report.exploration.requests.exploring).toBe(Number(printed));
    expect(report.exploration.requests.exploring).toBeGreaterThan(0);
    expect(report.exploration.requests.exploring).toBeLessThanOrEqual(150);
  });

  it('fails the run with the shortest failing sequence as curl lines under its failing finding', async () => {
    const server = await startReferenceServer({ token, breakage: 'read-back-differs' });
    running.push(server);
    const { code, output, report } = await contract(server.baseUrl, ['--settle', '300', '--seed', '11'], 'broken');
    expect(code).toBe(1);
    const [failed] = report.operations.exploration ?? [];
    expect(failed?.state).toBe('failed');
    const [error = ''] = failed?.errors ?? [];
    expect(error).toMatch(/^\[fail\] read-back-values: .* → 200: .*'name'/);
    expect(error).toMatch(/\nshrunk from \d+ to \d+ requests .*; the same sequences again: --seed 11 --budget 150\n/);
    expect(error).toMatch(/\nBASE='http:\/\/127\.0\.0\.1:\d+\/v1' {3}# and CONTRACT_TOKEN, the key\ncurl /);
    // The pet it reads back was created by an earlier check of the run: its create comes first, saying where.
    expect(error).toMatch(/\ncurl -X POST "\$BASE\/pets" .*# → 201, id \d+ \(earlier in the run: createPet › /);
    expect(error.split('\n').slice(-2).join('\n')).toEqual(report.exploration.failure?.script.slice(-2).join('\n'));
    // The same lines in the human output, indented under the check.
    expect(output).toContain(`      ${report.exploration.failure?.script[1] ?? 'none'}`);
    expect(output).toMatch(
      /Stateful exploration \(fast-check, seed 11, budget 150\):\n.*\n {2}failed: \[fail\] read-back-values/,
    );
  });

  it('leaves the exploration out with --budget 0, and says so', async () => {
    const server = await startReferenceServer({ token });
    running.push(server);
    const { code, output, report } = await contract(server.baseUrl, ['--budget', '0'], 'off');
    expect(code).toBe(0);
    expect(report.operations.exploration).toBeUndefined();
    expect(report.exploration).toMatchObject({ budget: 0, outcome: 'off', requests: { exploring: 0, shrinking: 0 } });
    expect(output).toContain('Stateful exploration: off (--budget 0)');
  });
});
