import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let folder: string;

/** Runs a command in the user's folder; output as text. */
const run = (command: string, args: string[]) =>
  execFileSync(command, args, {
    cwd: folder,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

describe('the package as users get it (npm pack, installed into an empty folder)', () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-packed-'));
    // dist/ is built by the test run's global setup; pack it as it is.
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', folder], {
      cwd: packageRoot,
      stdio: 'ignore',
    });
    const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz')) as string;
    writeFileSync(join(folder, 'package.json'), '{ "name": "a-user", "private": true, "type": "module" }\n');
    run(npm, [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `./${tarball}`,
      'msw@2',
      'express@5',
    ]);
    cpSync(join(packageRoot, 'test/project/packed'), folder, { recursive: true });
  }, 240_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('answers through every export: createMock().fetch, /express, /msw, and the node:http server', () => {
    expect(JSON.parse(run(process.execPath, ['use-every-entry.mjs']))).toEqual({
      fetch: { status: 200, pets: 3 },
      express: { status: 200, pets: 2 },
      msw: { status: 200, body: '{"id":3,"name":"Luna","categoryId":3,"status":"sold"}' },
      node: { status: 200, deprecation: '@1795305600' },
    });
  });

  it('ships types that a TypeScript user compiles against, ids typed as number | bigint', () => {
    const tsc = join(packageRoot, 'node_modules/typescript/bin/tsc');
    const output = (() => {
      try {
        return run(process.execPath, [
          tsc,
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--types',
          'node',
          '--typeRoots',
          join(packageRoot, 'node_modules/@types'),
          'types.ts',
        ]);
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    })();
    expect(output).toBe('');
  });

  it('serves the web pages from the installed package: the reference and the dashboard', async () => {
    const child = spawn(join(folder, 'node_modules/.bin/petstore-mock'), ['--port', '0', '--log-level', 'silent'], {
      cwd: folder,
    });
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const deadline = Date.now() + 15_000;
      while (!/Docs\s+(http:\S+)/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const origin = (/Docs\s+(http:\/\/[^/\s]+)/.exec(out) ?? [])[1];
      expect(origin).toBeDefined();
      for (const path of ['/', '/docs/swagger-ui-bundle.js', '/__admin/ui', '/__admin/ui/dashboard.js']) {
        expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
      }
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('runs both programs: petstore-mock and petstore-contract', () => {
    expect(run(join(folder, 'node_modules/.bin/petstore-mock'), ['--version']).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run(join(folder, 'node_modules/.bin/petstore-contract'), ['--help'])).toContain('--base-url URL');
  });
});
