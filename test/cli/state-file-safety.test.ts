import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { builtPrograms } from '../support/build-dist.js';
import { killRunningClis, startCli, waitForBanner } from './start-cli.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hasProc = existsSync('/proc/self/stat');
/** Whether this machine lets the test run a program as pid 1 of its own namespace, as a container does (root). */
const canUnshare = hasProc && spawnSync('unshare', ['--pid', '--fork', '--mount-proc', '--uts', 'true']).status === 0;
const container = (hostname: string) => [
  'unshare',
  '--pid',
  '--fork',
  '--mount-proc',
  '--uts',
  '--kill-child=SIGKILL',
  'sh',
  '-c',
  `hostname ${hostname} && exec "$0" "$@"`,
];
/** A process's state letter from /proc (`Z` for a zombie), read here rather than by the code under test. */
const stateOf = (pid: number): string | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};
const lockOwner = (path: string) => JSON.parse(readFileSync(`${path}.lock`, 'utf8')) as { pid: number; host: string };

describe('petstore-mock --state-file on a shared machine, and in a container', () => {
  let dir: string;
  let path: string;
  const others: Array<{ kill(signal: NodeJS.Signals): boolean }> = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-cli-safety-'));
    path = join(dir, 'petstore.json');
  });
  afterEach(() => {
    killRunningClis();
    for (const other of others.splice(0)) other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const args = (file = path) => ['--port', '0', '--log-level', 'silent', '--state-file', file];

  it('refuses a state file another user planted as a link, and writes nothing where it points', async () => {
    // In a shared folder, a link to a file the victim's shell runs, in a folder that does not exist yet.
    const victim = join(dir, 'victim-home', 'newdir', '.bash_profile');
    symlinkSync(victim, path);
    const cli = startCli(args());
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      `petstore-mock: cannot start: ${path}: is a symbolic link, which the mock does not follow (another user could point it at a file of yours); name the file it points to, if you trust it\n`,
    );
    expect(existsSync(join(dir, 'victim-home'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['petstore.json']);
  });

  it('refuses a second mock on a hard link of a running mock’s state file', async () => {
    const first = startCli(args());
    await waitForBanner(first);
    linkSync(path, join(dir, 'other-name.json'));
    const second = startCli(args(join(dir, 'other-name.json')));
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain('has 2 names (hard links)');
    expect(first.child.exitCode).toBeNull();
  });

  it.runIf(hasProc)('restarts at once on its file after kill -9, while the killed mock is still a zombie', async () => {
    // The mock under a parent that never reaps it (as a pid 1 that does not wait): killed, it stays a zombie.
    const parent = spawn(
      'sh',
      ['-c', `"$0" "$@" & echo "pid $!"; exec sleep 60`, process.execPath, builtPrograms.mock, ...args()],
      { cwd: packageRoot },
    );
    others.push(parent);
    let output = '';
    parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!/API\s+http/.test(output)) await sleep(25);
    const pid = Number(/pid (\d+)/.exec(output)?.[1]);
    expect(lockOwner(path).pid).toBe(pid);
    process.kill(pid, 'SIGKILL');
    while (stateOf(pid) !== 'Z') await sleep(10);
    const restarted = startCli(args());
    await waitForBanner(restarted);
    expect(lockOwner(path).pid).toBe(restarted.child.pid);
    expect(stateOf(pid)).toBe('Z');
  });

  it.runIf(canUnshare)('restarts at once as pid 1 of a container, after kill -9 of the last pid 1', async () => {
    const first = startCli(args(), {}, container('mock-container'));
    await waitForBanner(first);
    expect(lockOwner(path)).toMatchObject({ pid: 1, host: 'mock-container' });
    first.child.kill('SIGKILL');
    await first.exited;
    await sleep(300);
    // The same container started again: pid 1 again, the same host name, another start time.
    const second = startCli(args(), {}, container('mock-container'));
    await waitForBanner(second);
    expect(second.stderr()).toBe('');
    expect(lockOwner(path)).toMatchObject({ pid: 1, host: 'mock-container' });
  });

  it.runIf(canUnshare)(
    'starts in a recreated container (another host name) once the old lock has gone 3 s without a refresh',
    async () => {
      const first = startCli(args(), {}, container('container-one'));
      await waitForBanner(first);
      first.child.kill('SIGKILL');
      await first.exited;
      const second = startCli(args(), {}, container('container-two'));
      await waitForBanner(second);
      expect(lockOwner(path)).toMatchObject({ pid: 1, host: 'container-two' });
    },
  );

  it('keeps a state file edited by hand while the mock runs, and says so, instead of overwriting it', async () => {
    const cli = startCli(['--port', '0', '--state-file', path, '--scenario', 'one-of-each-status']);
    const baseUrl = await waitForBanner(cli);
    const edited = readFileSync(path, 'utf8').replace('"Bella"', '"Edited by hand"');
    writeFileSync(path, edited);
    const created = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
    });
    expect(created.status).toBe(201);
    // The mock moves the edited file aside, then saves its own: wait for both, however long the machine takes.
    let kept: string | undefined;
    while (!kept) {
      kept = readdirSync(dir).find((name) => name.startsWith('petstore.json.edited-'));
      if (!kept) await sleep(25);
    }
    expect(readFileSync(join(dir, kept), 'utf8')).toBe(edited);
    const saved = (): string => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return ''; // between the move aside and the save
      }
    };
    while (!saved().includes('"Rex"')) await sleep(25);
    expect(readFileSync(path, 'utf8')).toContain('"Rex"');
    expect(readFileSync(path, 'utf8')).toContain('"Bella"');
    while (!cli.stdout().includes('changed by another program')) await sleep(25);
    const warning = cli
      .stdout()
      .split('\n')
      .find((line) => line.includes('changed by another program'));
    expect(JSON.parse(warning as string)).toMatchObject({
      level: 40,
      stateFile: path,
      kept: join(dir, kept as string),
    });
  });

  it('names a state file saved with the scenario `constructor` as unknown, with the file, not as a lookup failure', async () => {
    writeFileSync(
      path,
      JSON.stringify({ format: 'petstore-kit-state', version: 1, scenario: 'constructor', pets: [] }),
    );
    const cli = startCli(args());
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain(
      `petstore-mock: cannot start: ${path}: was saved with scenario 'constructor', which is not known now (known: `,
    );
  });
});
