import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

let dir: string;
const started: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-stop-'));
});
afterEach(() => {
  // Whatever a test left running: the server (by the id in its pid file) and the shells around it.
  const pid = Number(readIfThere(join(dir, 'server.pid')));
  if (pid > 0) signal(pid, 'SIGKILL');
  for (const child of started.splice(0)) if (child.pid !== undefined) signal(child.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function readIfThere(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Waits (bounded) for a condition, checking every 25 ms; false when it never held. */
async function eventually(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

/**
 * A server that stops as the CLIs do, started as npx starts a bin: by a shell (`sh -c`) that stays its parent.
 * It writes why it stopped into `stopped`, and its id into `server.pid` once it listens.
 */
function startUnderShell(env: NodeJS.ProcessEnv): ChildProcess {
  const module = pathToFileURL(join(packageRoot, 'dist', 'node', 'when-told-to-stop.js')).href;
  writeFileSync(
    join(dir, 'server.mjs'),
    `import { writeFileSync } from 'node:fs';
     import { createServer } from 'node:http';
     import { whenToldToStop } from ${JSON.stringify(module)};
     const server = createServer();
     server.listen(0, '127.0.0.1');
     whenToldToStop(server, (reason) => {
       writeFileSync('stopped', reason);
       server.close(() => process.exit(3));
     }, { parentPollMs: 50, pidFile: 'server.pid' });`,
  );
  // A compound command, so that the shell cannot exec node in its own place: it stays the parent, as npx's does.
  const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} server.mjs; echo exited`], {
    cwd: dir,
    env: { ...env, PATH: process.env.PATH },
    stdio: 'ignore',
  });
  started.push(shell);
  return shell;
}

const pidOf = () => Number(readIfThere(join(dir, 'server.pid')));
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('whenToldToStop', () => {
  it('writes the process id once listening, stops on SIGTERM, and removes the pid file on exit', async () => {
    startUnderShell({});
    expect(await eventually(() => pidOf() > 0)).toBe(true);
    const pid = pidOf();
    process.kill(pid, 'SIGTERM');
    expect(await eventually(() => !isRunning(pid))).toBe(true);
    expect(readFileSync(join(dir, 'stopped'), 'utf8')).toBe('SIGTERM');
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });

  it.each(['SIGINT', 'SIGHUP'] as const)('stops on %s too', async (name) => {
    startUnderShell({});
    expect(await eventually(() => pidOf() > 0)).toBe(true);
    process.kill(pidOf(), name);
    expect(await eventually(() => readIfThere(join(dir, 'stopped')) === name)).toBe(true);
  });

  it('stops when npm started it and the shell npm ran it in dies, as on a SIGTERM to npx', async () => {
    const shell = startUnderShell({ npm_lifecycle_event: 'npx' });
    expect(await eventually(() => pidOf() > 0)).toBe(true);
    const pid = pidOf();
    // What npm does with a SIGTERM: it passes it to the shell, which dies of it without passing it on.
    shell.kill('SIGTERM');
    expect(await eventually(() => !isRunning(pid))).toBe(true);
    expect(readFileSync(join(dir, 'stopped'), 'utf8')).toBe('the parent process exited');
  });

  it('keeps running when its shell exits, when it was started directly (not by npm)', async () => {
    const shell = startUnderShell({});
    expect(await eventually(() => pidOf() > 0)).toBe(true);
    shell.kill('SIGTERM');
    // Ten times the poll interval: long enough for the watch to have seen the orphan, if there were one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(pidOf())).toBe(true);
    expect(existsSync(join(dir, 'stopped'))).toBe(false);
  });
});
