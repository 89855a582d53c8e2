import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../src/core/store/revision-counter.js';
import { createScenario } from '../../src/core/store/scenario.js';
import { petShape, petsIn } from '../support/kit-model.js';
import { StateFile } from '../../src/persistence/state-file.js';
import { lockStateFile, processFacts, staleAfterMs, type LockOwner } from '../../src/persistence/state-lock.js';

const revisions = createRevisionCounter();
const hasProc = existsSync('/proc/self/stat');
const bootId = hasProc ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : undefined;
const ownStart = (() => {
  const facts = processFacts('self');
  return facts && facts !== 'gone' ? facts.start : undefined;
})();

function storeWith(): MemoryStore {
  const store = new MemoryStore({ shapes: [petShape], revisions });
  store.load(createScenario('test', { pets: [{ id: 1, name: 'Bella', categoryId: 1 }] }, [petShape], revisions));
  return store;
}

/** A lock file as an earlier mock left it, last refreshed `ageMs` ago. */
function leaveLock(path: string, owner: Partial<LockOwner>, ageMs = 60_000): void {
  writeFileSync(
    `${path}.lock`,
    JSON.stringify({ pid: 999_999, host: hostname(), since: '2030-01-01T00:00:00.000Z', ...owner }),
  );
  const at = new Date(Date.now() - ageMs);
  utimesSync(`${path}.lock`, at, at);
}

describe('the lock of a state file', () => {
  let dir: string;
  let path: string;
  const opened: StateFile[] = [];
  const children: ChildProcess[] = [];
  const watch = () => {
    const file = new StateFile(path, { debounceMs: 5 });
    opened.push(file);
    file.watch(storeWith());
    return file;
  };
  const lockOwner = () => JSON.parse(readFileSync(`${path}.lock`, 'utf8')) as LockOwner;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-lock-'));
    path = join(dir, 'state.json');
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const file of opened.splice(0)) await file.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names its owner by more than a pid: start time, boot id, host name and a random id of the process', () => {
    watch();
    const owner = lockOwner();
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(owner.process).toMatch(/^[0-9a-f]{16}$/);
    if (hasProc) expect(owner).toMatchObject({ start: ownStart, boot: bootId });
  });

  // A container's mock is pid 1 after every restart: the lock an earlier pid 1 left names this very pid.
  it.each([
    ['another start time', { start: (ownStart ?? 0) + 1 }],
    ['another boot id', { boot: '00000000-0000-0000-0000-000000000000' }],
    ['another host name, not refreshed for a while (a recreated container)', { host: 'recreated-container' }],
  ])('takes over at once a lock naming this very pid with %s', (_case, differs) => {
    leaveLock(path, { pid: process.pid, start: ownStart, boot: bootId, ...differs });
    const started = performance.now();
    watch();
    expect(performance.now() - started).toBeLessThan(staleAfterMs / 2);
    expect(lockOwner()).toMatchObject({ pid: process.pid, host: hostname() });
  });

  it.runIf(hasProc)('takes over at once a lock whose pid now belongs to another process', () => {
    const other = spawn('sleep', ['30']);
    children.push(other);
    leaveLock(path, { pid: other.pid, start: 1, boot: bootId });
    watch();
    expect(lockOwner().pid).toBe(process.pid);
  });

  it.runIf(hasProc)('takes over at once a lock held by a zombie (killed, never reaped by its parent)', async () => {
    // The child exits once its parent has become (by `exec`) a `sleep` that never reaps it, and not before: a
    // child that exited first could be reaped by the shell, however slowly a busy machine gets to the exec.
    const parent = spawn('sh', [
      '-c',
      'p=$$; (while read c < /proc/$p/comm; [ "$c" != sleep ]; do :; done) & echo $!; exec sleep 300',
    ]);
    children.push(parent);
    const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
    const zombie = Number(chunk.toString().trim());
    // Its child exits when the machine gets to it: wait for that, however busy the machine is (the test's timeout bounds it).
    while ((processFacts(zombie) as { state?: string } | undefined)?.state !== 'Z') {
      if (processFacts(zombie) === 'gone') throw new Error(`process ${zombie} was reaped before it became a zombie`);
      await setImmediatePromise();
    }
    expect(processFacts(zombie)).toMatchObject({ state: 'Z' });
    const facts = processFacts(zombie) as { start: number };
    leaveLock(path, { pid: zombie, start: facts.start, boot: bootId }, 0);
    watch();
    expect(lockOwner().pid).toBe(process.pid);
  });

  it('refuses a lock of a live process of this machine, naming it', () => {
    const live = spawn('sleep', ['30']);
    children.push(live);
    const facts = processFacts(live.pid as number);
    leaveLock(path, {
      pid: live.pid,
      ...(facts && facts !== 'gone' ? { start: facts.start } : {}),
      ...(bootId ? { boot: bootId } : {}),
    });
    expect(() => watch()).toThrow(
      `${path}: is in use by another mock, process ${live.pid} on ${hostname()}, since 2030-01-01T00:00:00.000Z (lock ${path}.lock); stop it, or name another --state-file`,
    );
  });

  it('refuses a lock of another host that its holder keeps refreshing, and takes it once the refresh stops', async () => {
    leaveLock(path, { pid: 1, host: 'other-host' }, 0);
    // The other machine's mock, refreshing its lock every 200 ms.
    const refresher = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); setInterval(() => { const now = new Date(); fs.utimesSync(${JSON.stringify(`${path}.lock`)}, now, now); process.stdout.write('refreshed\\n'); }, 200);`,
    ]);
    children.push(refresher);
    // Its first refresh, whenever the machine gets to it: then the lock is fresh for 3 s from now on.
    await once(refresher.stdout, 'data');
    expect(() => watch()).toThrow(
      `${path}: is in use by another mock, process 1 on other-host, since 2030-01-01T00:00:00.000Z (lock ${path}.lock); stop it, or name another --state-file; it is taken over once that mock has stopped refreshing it for 3 s`,
    );
    refresher.kill('SIGKILL');
    await once(refresher, 'exit');
    // Now nobody refreshes it: the start waits out the rest of the three seconds, then takes it.
    watch();
    expect(lockOwner().pid).toBe(process.pid);
  }, 15_000);

  it('refreshes its own lock every second, and a lock taken over makes every change 503 store_unavailable', async () => {
    const store = storeWith();
    const file = new StateFile(path, { debounceMs: 5 });
    opened.push(file);
    file.watch(store);
    const at = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, at, at);
    // A refresh: the lock's time moves from a minute ago to now (waited for, however late the machine runs its timer).
    await vi.waitFor(() => expect(statSync(`${path}.lock`).mtimeMs).toBeGreaterThan(at.getTime() + 30_000), {
      timeout: 50_000,
      interval: 50,
    });
    // Another process judged this mock gone and took the lock.
    rmSync(`${path}.lock`);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: 'elsewhere', since: 'now' }));
    await vi.waitFor(() => expect(file.failure?.code).toBe('store_unavailable'), { timeout: 50_000, interval: 50 });
    expect(() => petsIn(store).create({ name: 'Refused', categoryId: 1 })).toThrow(/is no longer this mock's/);
    // Its lock is not removed when this mock stops.
    await file.close();
    expect(existsSync(`${path}.lock`)).toBe(true);
  }, 120_000);

  it('keeps working without /proc: a gone pid is taken over at once', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    // No start time or boot id: as a lock written where /proc is absent.
    leaveLock(path, { pid: gone }, 0);
    lockStateFile(path).release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
