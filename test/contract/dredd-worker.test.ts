import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DreddJob } from '../../src/contract/dredd-job.js';
import type * as RunDredd from '../../src/contract/run-dredd.js';
import { defaultDocumentPath, packageRoot } from '../../src/package-root.js';

// The worker is a built program (dist/contract/dredd-worker.js), found next to the built run-dredd.js.
const { runDreddJobs } = (await import(
  pathToFileURL(join(packageRoot, 'dist', 'contract', 'run-dredd.js')).href
)) as typeof RunDredd;
const workDir = mkdtempSync(join(tmpdir(), 'dredd-worker-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function job(exitCode: string): DreddJob {
  return {
    // Nothing listens on port 9 of 127.0.0.1: Dredd reports that it cannot connect.
    endpoint: 'http://127.0.0.1:9/v1',
    documentPath: defaultDocumentPath,
    hooksPath: join(packageRoot, 'test', 'contract', 'support', 'exiting-hooks.cjs'),
    workDir: mkdtempSync(join(workDir, 'cwd-')),
    env: { PETSTORE_TEST_EXIT: exitCode },
  };
}

describe('runDreddJobs', { timeout: 60_000 }, () => {
  it("runs the jobs one after the other, each with its own output and Dredd's exit code", async () => {
    const [first, second] = await runDreddJobs([job(''), job('')]);
    for (const output of [first, second]) {
      expect(output?.code).toBe(1);
      expect(`${output?.stdout.join('\n')}\n${output?.stderr.join('\n')}`).toMatch(/Error connecting to server/);
    }
  });

  it("gives a job whose Dredd dies the worker's exit code, and runs the rest in a new worker", async () => {
    const [crashed, next] = await runDreddJobs([job('3'), job('')]);
    expect(crashed?.code).toBe(3);
    expect(next?.code).toBe(1);
    expect(`${next?.stdout.join('\n')}\n${next?.stderr.join('\n')}`).toMatch(/Error connecting to server/);
  });
});
