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
 * printed (through its `last` line, when given), as its output arrives; throws
 * if the program exits first, or prints no banner within 15 s.
 */
function urlInBanner(cli: Cli, label: string, last?: string): Promise<string> {
  const line = new RegExp(`${label}\\s+(http:\\/\\/127\\.0\\.0\\.1:\\d+\\/v1)`);
  const printed = (): string | undefined => {
    const match = line.exec(cli.stdout());
    return match?.[1] && (last === undefined || cli.stdout().includes(last)) ? match[1] : undefined;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (): void => {
      settled = true;
      clearTimeout(deadline);
      cli.child.stdout.off('data', onData);
    };
    // The collector in startCli was added first: each chunk is in cli.stdout() by the time this runs.
    const onData = (): void => {
      if (settled) return;
      const url = printed();
      if (url === undefined) return;
      done();
      resolve(url);
    };
    // Once its output is all read: a banner in its last chunk still counts, and stderr says why it stopped.
    const onExit = (): void => {
      if (settled) return;
      done();
      const url = printed();
      if (url === undefined) reject(new Error(`exited early: ${cli.stderr()}`));
      else resolve(url);
    };
    const deadline = setTimeout(() => {
      done();
      reject(new Error(`no banner: ${cli.stdout()} ${cli.stderr()}`));
    }, 15_000);
    cli.child.stdout.on('data', onData);
    void cli.exited.then(onExit);
    onData();
  });
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
