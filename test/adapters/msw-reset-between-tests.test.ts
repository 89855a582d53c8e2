import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

const run = promisify(execFile);
const reports = mkdtempSync(join(tmpdir(), 'petstore-reset-suite-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

interface SuiteResult {
  passed: number;
  failed: number;
  order: string[];
  failures: string[];
}

/** Runs reset-suite/frontend-app.suite.ts in a child vitest, as a user's project runs it, with these flags. */
async function runSuite(flags: string[], env: Record<string, string> = {}): Promise<SuiteResult> {
  const name = `${flags.join('-').replace(/\W+/g, '_')}-${env.RESET_WITH ?? 'mock'}`;
  const output = join(reports, `${name}.json`);
  const orderFile = join(reports, `${name}.order`);
  const vitest = join(packageRoot, 'node_modules/vitest/vitest.mjs');
  const args = ['run', '--config', 'test/adapters/reset-suite/vitest.config.ts', '--reporter', 'json'];
  await run(process.execPath, [vitest, ...args, '--outputFile', output, ...flags], {
    cwd: packageRoot,
    env: { ...process.env, ...env, ORDER_FILE: orderFile },
  }).catch((error: unknown) => {
    // A failing suite exits 1 and still writes its report; anything else is a problem of the run itself.
    if ((error as { code?: number }).code !== 1) throw error;
  });
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
  };
  const tests = report.testResults.flatMap((file) => file.assertionResults);
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    order: readFileSync(orderFile, 'utf8').trim().split('\n'),
    failures: tests.filter((test) => test.status === 'failed').map((test) => test.title),
  };
}

describe('a vitest + MSW suite that resets with handlers.mock.reset() before each test', () => {
  it('passes all 17 tests in three shuffled orders', async () => {
    const orders: string[][] = [];
    const seeds = [11, 23, 1907];
    // The three runs at once: each is a vitest of its own, with its own report and order file.
    const results = await Promise.all(
      seeds.map((seed) => runSuite(['--sequence.shuffle', '--sequence.seed', String(seed)])),
    );
    for (const [index, seed] of seeds.entries()) {
      const result = results[index] as SuiteResult;
      expect(result.failures, `seed ${seed}`).toEqual([]);
      expect(result.passed, `seed ${seed}`).toBe(17);
      expect(result.order, `seed ${seed}`).toHaveLength(17);
      orders.push(result.order);
    }
    // The orders really differ: a shuffle that kept the declared order would prove nothing.
    expect(new Set(orders.map((order) => order.join('|'))).size).toBe(3);
  }, 120_000);

  it('fails when only the store is reset (scenario, faults and latency left by the test before)', async () => {
    const result = await runSuite([], { RESET_WITH: 'store' });
    expect(result.failures).toEqual(
      expect.arrayContaining([
        'finds the scenario it was created with as the current one',
        'reads a pet with getPet, untouched by faults scheduled before',
        'runs without latency, as the mock was created',
        'journals only the requests of this test',
      ]),
    );
  }, 180_000);
});
