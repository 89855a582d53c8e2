import { spawn } from 'node:child_process';
import { builtPrograms } from '../../support/build-dist.js';

const scripts = { contract: builtPrograms.contract, dredd: builtPrograms.dredd };

export interface RunnerResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together. */
  output: string;
  durationMs: number;
}

/** Runs a built runner (see test/support/build-dist.ts) as a user would run its CLI, with a clean contract environment. */
export async function runRunner(
  runner: keyof typeof scripts,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunnerResult> {
  const started = performance.now();
  const baseEnv = { ...process.env };
  for (const name of Object.keys(baseEnv))
    if (name.startsWith('CONTRACT_') || name.startsWith('VITEST')) delete baseEnv[name];
  delete baseEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [scripts[runner], ...args], {
    env: { ...baseEnv, ...env },
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
