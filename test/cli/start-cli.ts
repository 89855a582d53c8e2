import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { packageRoot } from '../../src/package-root.js';
import { builtPrograms } from '../support/build-dist.js';

/** The built `petstore-mock` running as a child process, its output collected. */
export interface Cli {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** The exit code, once the program has exited and its output is all read. */
  exited: Promise<number | null>;
}

const running: Cli[] = [];

/**
 * Runs `node dist/cli.js ARGS` from the package root, as users do; under
 * `wrapper` when given (`unshare --pid --fork …`, as a container runs it).
 */
export function startCli(args: string[], env: Record<string, string> = {}, wrapper: string[] = []): Cli {
  const [command, ...before] = [...wrapper, process.execPath];
  const child = spawn(command as string, [...before, builtPrograms.mock, ...args], {
    cwd: packageRoot,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'close', not 'exit': the program's pipes may still hold output when it exits, and a test reads its stderr next.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const cli = { child, stdout: () => stdout, stderr: () => stderr, exited };
  running.push(cli);
  return cli;
}

/**
 * Resolves with the URL the banner prints after `label` once the banner is
 * printed (through its `last` line, when given); throws if the program exits first.
 */
async function urlInBanner(cli: Cli, label: string, last?: string): Promise<string> {
  const line = new RegExp(`${label}\\s+(http:\\/\\/127\\.0\\.0\\.1:\\d+\\/v1)`);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = line.exec(cli.stdout());
    if (match?.[1] && (last === undefined || cli.stdout().includes(last))) return match[1];
    if (cli.child.exitCode !== null) throw new Error(`exited early: ${cli.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no banner: ${cli.stdout()} ${cli.stderr()}`);
}

/** Resolves with the mock's API base URL once its banner is printed, through its `Try` line. */
export function waitForBanner(cli: Cli): Promise<string> {
  return urlInBanner(cli, 'API', 'Try');
}

/** Resolves with the base URL the proxy serves the API under, once its banner names it. */
export function waitForProxyBanner(cli: Cli): Promise<string> {
  return urlInBanner(cli, 'Proxy');
}

/** For `afterEach`: kills every program a test started and left running. */
export function killRunningClis(): void {
  for (const cli of running.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
}
