import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock: written into the lock file, read back to name the holder when another mock is refused. */
interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** A lock file that could not be taken; the message names the file, and the process holding it when known. */
export class StateLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateLockError';
  }
}

export interface StateLock {
  readonly path: string;
  /** Removes the lock file, if it is still this process's. Safe to call more than once. */
  release(): void;
}

/** How long a lock file without a readable owner may be young before it counts as left by a crash in mid-write. */
const unreadableGraceMs = 5_000;

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string') {
      return { pid: owner.pid, host: owner.host, since: String(owner.since ?? '?') };
    }
  } catch {
    // Not ours to read, or written only in part: see the grace below.
  }
  return undefined;
}

/** Whether a process of this machine is running: signal 0 checks without sending anything. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the lock file at `path` was left behind: by a process of this
 * machine that no longer runs (a SIGKILL, a crash), or, unreadable, older
 * than a crash in mid-write could explain. A lock of another machine (a
 * shared folder) is never taken for stale: the message says how to remove it.
 */
function isStale(path: string, owner: LockOwner | undefined): boolean {
  if (!owner) {
    try {
      return Date.now() - statSync(path).mtimeMs > unreadableGraceMs;
    } catch {
      return true;
    }
  }
  return owner.host === hostname() && owner.pid !== process.pid && !isRunning(owner.pid);
}

function describeOwner(owner: LockOwner | undefined): string {
  if (!owner) return 'another process';
  if (owner.pid === process.pid && owner.host === hostname())
    return `this process (pid ${owner.pid}), since ${owner.since}`;
  return `process ${owner.pid} on ${owner.host}, since ${owner.since}`;
}

/**
 * Takes the lock of a state file: `FILE.lock`, created exclusively, holding
 * this process's pid, host and start time. A second mock on the same file is
 * refused with a `StateLockError` naming the holder. A lock left by a process
 * of this machine that is gone (killed, crashed) is taken over at once, so a
 * mock restarts straight after a crash; the lock file is removed on
 * `release()`, and when the process exits.
 *
 * (proper-lockfile judges staleness by a lock's age instead, so a mock killed
 * with SIGKILL could not be restarted on its file for several seconds, and it
 * does not record who holds a lock, so the refusal could not name it.)
 */
export function lockStateFile(target: string, what = target): StateLock {
  const path = `${target}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const text = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new StateLockError(`${what}: its lock ${path} cannot be created (${code ?? (error as Error).message})`);
      }
      const holder = readOwner(path);
      if (attempt === 0 && isStale(path, holder)) {
        // Taken over only if it still holds what was judged stale, so that two mocks starting at once do not both win.
        if (JSON.stringify(readOwner(path)) === JSON.stringify(holder)) {
          try {
            unlinkSync(path);
          } catch {
            // Another mock removed it first: the next attempt finds out who holds it now.
          }
        }
        continue;
      }
      throw new StateLockError(
        `${what}: is in use by another mock, ${describeOwner(holder)} (lock ${path}); stop it, or name another --state-file${holder && holder.host !== hostname() ? `; if that mock is gone, remove ${path}` : ''}`,
      );
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    break;
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only a lock that is still this process's is removed (not one a later mock took over).
    if (readOwner(path)?.pid !== owner.pid) return;
    try {
      unlinkSync(path);
    } catch {
      // Already gone (its folder removed): nothing is held.
    }
  };
  process.once('exit', release);
  return { path, release };
}
