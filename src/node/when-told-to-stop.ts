import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';

export interface WhenToldToStopOptions {
  /**
   * Where to write the process id once the server listens, removed when the
   * process exits: a script signals the server itself, and knows it is ready.
   * Default `PETSTORE_PID_FILE`; none when that is unset.
   */
  pidFile?: string | undefined;
  /** Whether to stop when the parent process goes; default: when npm (npx, npm exec, npm start) started us. */
  watchParent?: boolean;
  /** How often the parent is looked for, in ms. */
  parentPollMs?: number;
}

/** The signals that ask a server to stop: Ctrl-C, `kill` (and CI runners), a closed terminal. */
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Calls `stop` once, however the process is told to stop:
 *
 * - SIGINT, SIGTERM or SIGHUP;
 * - its parent going away, when npm started it. `npx petstore-mock …` runs
 *   `sh -c 'petstore-mock …'` under npm: a SIGTERM to npx reaches that `sh`,
 *   which dies without passing it on, and the server would go on serving with
 *   no parent. The parent's id is looked at a few times a second (an orphan's
 *   changes); a process started directly (`petstore-mock &` in a script) keeps
 *   running after its shell exits, as any Unix program does.
 *
 * With a pid file, the process id is written there (atomically) once the
 * server listens, and removed when the process exits.
 */
export function whenToldToStop(
  server: Server,
  stop: (reason: string) => void,
  options: WhenToldToStopOptions = {},
): void {
  let told = false;
  const tell = (reason: string): void => {
    if (told) return;
    told = true;
    stop(reason);
  };
  for (const signal of stopSignals) process.on(signal, () => tell(signal));

  const watchParent = options.watchParent ?? process.env.npm_lifecycle_event !== undefined;
  if (watchParent) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      tell('the parent process exited');
    }, options.parentPollMs ?? 250);
    watch.unref();
  }

  const pidFile = options.pidFile ?? (process.env.PETSTORE_PID_FILE || undefined);
  if (pidFile !== undefined) {
    // Relative to the working folder, as the proxy's --report is (the mock's --pid-file comes resolved already).
    const path = resolve(pidFile);
    let written = false;
    server.once('listening', () => {
      // Written whole or not at all: a script that waits for the file never reads half an id.
      const temporary = join(dirname(path), `.${process.pid}.pid.tmp`);
      try {
        writeFileSync(temporary, `${process.pid}\n`);
        renameSync(temporary, path);
        written = true;
      } catch (error) {
        process.stderr.write(`cannot write the pid file ${path}: ${(error as Error).message}\n`);
        process.exitCode = 1;
        tell('the pid file could not be written');
      }
    });
    process.once('exit', () => {
      if (written) rmSync(path, { force: true });
    });
  }
}
