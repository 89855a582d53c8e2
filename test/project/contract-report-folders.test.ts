import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { builtPrograms } from '../support/build-dist.js';
import { startServer, type RunningServer } from '../support/start-server.js';

/** Runs a built runner in `cwd`, as a CI step does, with no contract setting from this environment. */
function runIn(cwd: string, script: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('CONTRACT_') || name.startsWith('VITEST')) delete env[name];
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('the runners and the folders of the files they are asked to write', { timeout: 120_000 }, () => {
  let mock: Mock;
  let server: RunningServer;
  let root: string;
  beforeAll(async () => {
    mock = createNodeMock({});
    server = await startServer(createNodeListener(mock));
    root = mkdtempSync(join(tmpdir(), 'petstore-report-folders-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('petstore-contract creates reports/ for --junit and --json, writes both, and exits 0 against the mock', async () => {
    const cwd = mkdtempSync(join(root, 'contract-'));
    const run = await runIn(cwd, builtPrograms.contract, [
      '--base-url',
      server.baseUrl,
      '--token',
      'dev-key',
      '--junit',
      'reports/x.xml',
      '--json',
      'reports/nested/y.json',
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/\n\d+ passed, 0 failed/);
    expect(readFileSync(join(cwd, 'reports/x.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);
    expect(JSON.parse(readFileSync(join(cwd, 'reports/nested/y.json'), 'utf8'))).toMatchObject({
      totals: { failed: 0 },
    });
  });

  it.each([
    ['petstore-contract', '--json', 'contract'],
    ['petstore-contract', '--junit', 'contract'],
    ['the Dredd runner', '--junit', 'dredd'],
  ] as const)('%s refuses at start, before any request, a %s file it could not write', async (_name, flag, runner) => {
    const cwd = mkdtempSync(join(root, `${runner}-refused-`));
    // A file where the folder should be: no folder can be made there.
    writeFileSync(join(cwd, 'reports'), 'not a folder');
    mock.journal.clear();
    const run = await runIn(cwd, builtPrograms[runner], [
      '--base-url',
      server.baseUrl,
      '--token',
      'dev-key',
      flag,
      'reports/out',
    ]);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(`error: ${flag} reports/out cannot be written: its folder`);
    // One line, no stack trace, and no check ran.
    expect(run.output).not.toMatch(/passed|\n\s+at /);
    expect(mock.journal.size).toBe(0);
  });

  it('petstore-contract still writes its JUnit file, saying why, when only --json cannot be written', async () => {
    const cwd = mkdtempSync(join(root, 'contract-json-refused-'));
    writeFileSync(join(cwd, 'blocked'), 'not a folder');
    const run = await runIn(cwd, builtPrograms.contract, [
      '--base-url',
      server.baseUrl,
      '--token',
      'dev-key',
      '--junit',
      'reports/x.xml',
      '--json',
      'blocked/y.json',
    ]);
    expect(run.code).toBe(2);
    expect(readFileSync(join(cwd, 'reports/x.xml'), 'utf8')).toContain('--json blocked/y.json cannot be written');
    expect(existsSync(join(cwd, 'blocked/y.json'))).toBe(false);
  });
});
