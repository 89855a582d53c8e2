import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtPrograms } from '../../support/build-dist.js';

const scripts = { contract: builtPrograms.contract, dredd: builtPrograms.dredd };
const batchScript = fileURLToPath(new URL('./run-batch.mjs', import.meta.url));

export interface RunnerResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together. */
  output: string;
  durationMs: number;
}

/** The environment a runner gets: this one without any contract setting, vitest variable or NODE_OPTIONS. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const baseEnv = { ...process.env };
  for (const name of Object.keys(baseEnv))
    if (name.startsWith('CONTRACT_') || name.startsWith('VITEST') || name.startsWith('PETSTORE_')) delete baseEnv[name];
  delete baseEnv.NODE_OPTIONS;
  return { ...baseEnv, ...env };
}

/** Runs a built runner (see test/support/build-dist.ts) as a user would run its CLI, with a clean contract environment. */
export async function runRunner(
  runner: keyof typeof scripts,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunnerResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [scripts[runner], ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        output: `${stdout}\n${stderr}`,
        durationMs: performance.now() - started,
      }),
    );
  });
}

/** Command lines for each runner, to check in one batch. */
export type BatchJobs = Partial<Record<keyof typeof scripts, readonly string[][]>>;

/**
 * Runs the built runners against several deployments in one process (`runContractBatch` and
 * `runDreddBatch`, side by side): each command line gets the output and exit code its own run
 * would give, for the cost of one process that loads the kit and compiles the document once.
 */
export async function runBatch(jobs: BatchJobs): Promise<Record<keyof typeof scripts, RunnerResult[]>> {
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'contract-batch-'));
  const resultFile = join(workDir, 'results.json');
  const child = spawn(process.execPath, [batchScript, resultFile], {
    env: cleanEnv({}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdin.end(JSON.stringify(jobs));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exit) => resolve(exit ?? -1));
  });
  try {
    if (code !== 0) throw new Error(`the batch exited with ${code}: ${output.slice(0, 2000)}`);
    const durationMs = performance.now() - started;
    type Written = Array<Omit<RunnerResult, 'output' | 'durationMs'>>;
    const written = JSON.parse(readFileSync(resultFile, 'utf8')) as Partial<Record<keyof typeof scripts, Written>>;
    const results = (runner: keyof typeof scripts): RunnerResult[] =>
      (written[runner] ?? []).map((result) => ({
        ...result,
        output: `${result.stdout}\n${result.stderr}`,
        durationMs,
      }));
    return { contract: results('contract'), dredd: results('dredd') };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
