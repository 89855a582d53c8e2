import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a lock: written into the lock file, read back to judge whether
 * the holder still runs and to name it when another mock is refused. A pid
 * alone names no process for long (a container's mock is pid 1 after every
 * restart), so the owner is the pid with the process's start time, the boot
 * it started in, the host name, and a random id of the process.
 */
export interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /** The process's start time, in clock ticks after boot (field 22 of /proc/PID/stat); absent without /proc. */
  start?: number;
  /** /proc/sys/kernel/random/boot_id; absent without /proc. */
  boot?: string;
  /** Random, per process: tells this process's own lock from another's that has its pid. */
  process?: string;
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

export interface LockOptions {
  /** Told once if the lock file is removed or replaced while it is held (another mock judged it stale). */
  onLost?: (problem: string) => void;
}

/** How long a lock file without a readable owner may be young before it counts as left by a crash in mid-write. */
const unreadableGraceMs = 5_000;
/** How often a holder refreshes its lock's time, so that a mock that cannot check its pid can tell it runs. */
export const heartbeatMs = 1_000;
/** A lock whose holder cannot be checked by its pid is stale once its time has not moved for this long. */
export const staleAfterMs = 3_000;

/** What /proc says of a process: its state letter and its start time; `gone` when it does not exist. */
type ProcessFacts = { state: string; start: number } | 'gone';

/** Facts of a process from /proc/PID/stat; `undefined` where /proc is absent (macOS, Windows) or unreadable. */
export function processFacts(pid: number | 'self'): ProcessFacts | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No such process, while /proc itself is there: the process is gone.
    if (code === 'ENOENT' || code === 'ESRCH') return hasProc() ? 'gone' : undefined;
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': the fields after the last ')' are fixed.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = Number(fields[19]);
  if (state === undefined || !Number.isSafeInteger(start)) return undefined;
  return { state, start };
}

function hasProc(): boolean {
  try {
    return lstatSync('/proc/self/stat').isFile();
  } catch {
    return false;
  }
}

function readBootId(): string | undefined {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}

let self: LockOwner | undefined;

/** This process as a lock owner (its start time and boot read once). */
function currentOwner(): LockOwner {
  if (!self) {
    const facts = processFacts('self');
    const boot = readBootId();
    self = {
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
      ...(facts && facts !== 'gone' ? { start: facts.start } : {}),
      ...(boot ? { boot } : {}),
      process: randomBytes(8).toString('hex'),
    };
  }
  return { ...self, pid: process.pid, host: hostname(), since: new Date().toISOString() };
}

function readOwner(path: string): LockOwner | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const buffer = Buffer.alloc(4096);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const owner = JSON.parse(buffer.subarray(0, length).toString('utf8')) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string') {
      return {
        pid: owner.pid,
        host: owner.host,
        since: String(owner.since ?? '?'),
        ...(typeof owner.start === 'number' ? { start: owner.start } : {}),
        ...(typeof owner.boot === 'string' ? { boot: owner.boot } : {}),
        ...(typeof owner.process === 'string' ? { process: owner.process } : {}),
      };
    }
  } catch {
    // Not ours to read, or written only in part: see the grace below.
  } finally {
    if (fd !== undefined) closeSync(fd);
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

/** The lock file's last refresh, in ms; `undefined` once it is gone. */
function refreshedAt(path: string): number | undefined {
  try {
    return lstatSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Waits without returning to the event loop: start-up is synchronous, and this wait is at most a few seconds. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Whether the holder has stopped refreshing its lock (every `heartbeatMs`):
 * true once the lock's time has not moved for `staleAfterMs`. A holder that
 * booted with this machine shares its clock, so the time of the last refresh
 * says it at once; otherwise (another machine's clock) the lock is watched
 * until it moves, or `staleAfterMs` pass without a move.
 */
function heartbeatStopped(path: string, holder: LockOwner, ours: LockOwner): boolean {
  const first = refreshedAt(path);
  if (first === undefined) return true;
  const sameClock = holder.boot !== undefined && holder.boot === ours.boot;
  const watchedSince = Date.now();
  for (;;) {
    const waited = Date.now() - watchedSince;
    const quiet = sameClock ? Math.max(Date.now() - first, waited) : waited;
    if (quiet >= staleAfterMs) return true;
    sleepSync(Math.min(100, staleAfterMs - quiet));
    const now = refreshedAt(path);
    if (now === undefined) return true;
    if (now !== first) return false;
  }
}

/** Why the lock file's holder is gone, or `undefined` while it may still run. */
export function staleBecause(path: string, holder: LockOwner | undefined, ours = currentOwner()): string | undefined {
  if (!holder) {
    const at = refreshedAt(path);
    return at === undefined || Date.now() - at > unreadableGraceMs
      ? 'its lock file holds no owner, and is older than a crash in mid-write explains'
      : undefined;
  }
  if (holder.process !== undefined && holder.process === ours.process) return undefined;
  if (holder.host === ours.host) {
    if (holder.boot !== undefined && ours.boot !== undefined && holder.boot !== ours.boot) {
      return 'it ran before this machine last booted';
    }
    // The pid is this process's own, and the lock is not: it was left by an earlier process with this pid (a
    // container's pid 1, restarted).
    if (holder.pid === ours.pid) return `its pid ${holder.pid} is now this process`;
    const facts = processFacts(holder.pid);
    if (facts === 'gone') return `process ${holder.pid} is gone`;
    if (facts) {
      // A zombie (killed, not yet reaped by its parent) or a dying process holds nothing.
      if (facts.state === 'Z' || facts.state === 'X') return `process ${holder.pid} has exited (a zombie)`;
      if (holder.start !== undefined && facts.start !== holder.start) {
        return `pid ${holder.pid} now belongs to another process`;
      }
      return undefined;
    }
    // Without /proc: signal 0 says whether the pid runs; a zombie or a reused pid is told by the lock's refresh.
    if (!isRunning(holder.pid)) return `process ${holder.pid} is gone`;
    return heartbeatStopped(path, holder, ours) ? `its holder stopped refreshing it ${staleAfterMs} ms ago` : undefined;
  }
  // Another host name: another machine, or another container, whose processes cannot be seen from here.
  return heartbeatStopped(path, holder, ours)
    ? `its holder on ${holder.host} has not refreshed it for ${staleAfterMs} ms`
    : undefined;
}

function describeOwner(owner: LockOwner | undefined, ours: LockOwner): string {
  if (!owner) return 'another process';
  if (owner.process !== undefined && owner.process === ours.process) {
    return `this process (pid ${owner.pid}), since ${owner.since}`;
  }
  return `process ${owner.pid} on ${owner.host}, since ${owner.since}`;
}

/** Whether the lock file at `path` is still the file `fd` holds open (not removed, nor replaced by another mock's). */
function stillOurs(path: string, fd: number): boolean {
  try {
    const held = fstatSync(fd);
    const now = lstatSync(path);
    return held.ino === now.ino && held.dev === now.dev;
  } catch {
    return false;
  }
}

/**
 * Takes the lock of a state file: `FILE.lock`, created exclusively (never
 * through a link), holding this process's pid, start time, boot id, host
 * name and start date. A second mock on the same file is refused with a
 * `StateLockError` naming the holder. A lock whose holder is gone is taken
 * over at once: a process of this machine that no longer runs, is a zombie,
 * or whose pid now belongs to another process (this one included: a
 * container's pid 1, restarted), or one of an earlier boot. A lock written
 * under another host name (another machine on a shared folder, another
 * container), whose holder cannot be checked by its pid, is taken over once
 * it has not been refreshed for `staleAfterMs` (a holder refreshes it every
 * second). The lock file is removed on `release()`, and when the process exits.
 *
 * (proper-lockfile judges staleness by a lock's age alone, so a mock killed
 * with SIGKILL could not be restarted on its file for several seconds, and it
 * does not record who holds a lock, so the refusal could not name it.)
 */
export function lockStateFile(target: string, what = target, options: LockOptions = {}): StateLock {
  const path = `${target}.lock`;
  const owner = currentOwner();
  const text = `${JSON.stringify(owner)}\n`;
  let fd: number;
  for (let attempt = 0; ; attempt++) {
    try {
      // O_EXCL never follows a link: a link planted at the lock's name makes this fail (EEXIST), not write elsewhere.
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new StateLockError(`${what}: its lock ${path} cannot be created (${code ?? (error as Error).message})`);
      }
      const holder = readOwner(path);
      if (attempt === 0 && staleBecause(path, holder, owner) !== undefined) {
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
      const elsewhere = holder !== undefined && holder.host !== owner.host;
      throw new StateLockError(
        `${what}: is in use by another mock, ${describeOwner(holder, owner)} (lock ${path}); stop it, or name another --state-file${elsewhere ? `; it is taken over once that mock has stopped refreshing it for ${staleAfterMs / 1000} s` : ''}`,
      );
    }
    writeSync(fd, text);
    break;
  }
  const heldFd = fd;
  let held = true;
  // The refresh that tells mocks which cannot check this pid (another container, another machine) that it runs.
  const heartbeat = setInterval(() => {
    if (!stillOurs(path, heldFd)) {
      clearInterval(heartbeat);
      options.onLost?.(`its lock ${path} was removed or taken over by another process`);
      return;
    }
    try {
      const now = new Date();
      futimesSync(heldFd, now, now);
    } catch {
      // The next beat tries again.
    }
  }, heartbeatMs);
  heartbeat.unref();
  const release = (): void => {
    if (!held) return;
    held = false;
    clearInterval(heartbeat);
    process.off('exit', release);
    // Only a lock that is still this process's is removed (not one a later mock took over).
    const ours = stillOurs(path, heldFd);
    closeSync(heldFd);
    if (!ours) return;
    try {
      unlinkSync(path);
    } catch {
      // Already gone (its folder removed): nothing is held.
    }
  };
  process.once('exit', release);
  return { path, release };
}
