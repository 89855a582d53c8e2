import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { answers } from '../support/answers.js';

/** The process groups the tests started (npm, its shell and the mock), killed whole after each test, passed or not. */
const started: { pid: number }[] = [];

afterEach(() => {
  for (const { pid } of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

describe('npm start', () => {
  it('starts without rebuilding an up-to-date dist/, and stops the mock when npm is sent SIGTERM', async () => {
    // What a CI script does: `npm start -- --port 0 &`, then `kill $!`, where $! is npm itself.
    const npm = spawn('npm', ['start', '--silent', '--', '--port', '0', '--log-level', 'silent'], {
      cwd: packageRoot,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own, so that a failing check still leaves no mock running (SIGTERM below goes to npm alone).
      detached: true,
    });
    started.push({ pid: npm.pid as number });
    let stdout = '';
    let stderr = '';
    npm.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(npm, 'exit');
    const deadline = Date.now() + 60_000;
    let origin: string | undefined;
    while (origin === undefined && Date.now() < deadline && npm.exitCode === null) {
      origin = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stdout)?.[1];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(origin, stderr).toBeDefined();
    expect(await answers(origin as string)).toBe(true);
    expect(stderr).not.toContain('rebuilding');
    npm.kill('SIGTERM');
    await exited;
    // The mock itself is gone, not reparented and still holding the port.
    // However long a busy machine takes to stop it: the test's timeout bounds the wait.
    const stopBy = Date.now() + 60_000;
    while (Date.now() < stopBy && (await answers(origin as string))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await answers(origin as string)).toBe(false);
  }, 90_000);
});
