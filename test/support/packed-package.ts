import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { inject } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** npm as a user runs it, from the npm cache when it can (the registry is reached only for what it lacks). */
export const npmEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});

/** Runs a command in a folder; its output as text (throws on a non-zero exit). */
export const runIn = (cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = npmEnv()): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });

/** Runs a command; its exit status and its output (stdout and stderr), whatever the status. */
export function spawnSyncText(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = npmEnv(),
): { status: number | null; output: string } {
  try {
    const stdout = execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env });
    return { status: 0, output: stdout };
  } catch (error) {
    const failed = error as { status: number | null; stdout?: string; stderr?: string };
    return { status: failed.status, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/**
 * The kit as `npm pack` makes it (dist/ as the test run's global setup built it), copied into `root`:
 * packed once per run and content (test/support/packed-tarball.ts); the tarball's path.
 */
export function packTarball(root: string): string {
  const packed = inject('packedTarball');
  const tarball = join(root, basename(packed));
  copyFileSync(packed, tarball);
  return tarball;
}

/**
 * `npm install` in a new folder `root/name`, as a user's project, with `env`
 * (npm's own by default; `nodeEnv(...)` for another Node); its output
 * (warnings included) and the folder.
 */
export function installInto(
  root: string,
  name: string,
  packages: string[],
  env: NodeJS.ProcessEnv = npmEnv(),
): { dir: string; output: string } {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    '{ "name": "a-user", "private": true, "type": "module", "scripts": { "e2e": "node e2e.mjs" } }\n',
  );
  const result = spawnSyncText(npm, ['install', '--loglevel=warn', ...packages], dir, env);
  if (result.status !== 0) throw new Error(`npm install ${packages.join(' ')} failed:\n${result.output}`);
  return { dir, output: result.output };
}

/** The TypeScript compiler of the kit's checkout, run in `cwd`: its report, empty when everything compiles. */
export function tscIn(cwd: string, args: string[]): string {
  try {
    return runIn(cwd, process.execPath, [join(packageRoot, 'node_modules/typescript/bin/tsc'), ...args]);
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

const nodes = new Map<number, string>();

/**
 * The `node` program of another major version, as `npx -y node@24` runs it
 * (from the npm registry, kept in npm's cache after the first time); the
 * running one for its own major.
 */
export function nodeOf(major: number): string {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  let path = nodes.get(major);
  if (!path) {
    path = runIn(packageRoot, npx, ['-y', `node@${major}`, '-p', 'process.execPath']).trim();
    nodes.set(major, path);
  }
  return path;
}

/** npm's environment with `node` first on the PATH: `npm` and `npx` then run on that Node, as on a user's machine. */
export function nodeEnv(node: string): NodeJS.ProcessEnv {
  const env = npmEnv();
  return { ...env, PATH: [dirname(node), env.PATH ?? ''].join(delimiter) };
}
