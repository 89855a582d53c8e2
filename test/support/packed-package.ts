import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
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

/**
 * Removes what `npx --package <spec>` installed for `spec` into npx's folder of npm's cache (one folder per
 * spec, kept after the run): a tarball of a test's temporary folder is a spec no later run asks for again.
 */
export function removeNpxInstallOf(spec: string): void {
  const cache = process.env.npm_config_cache ?? join(homedir(), '.npm');
  const npxFolder = join(cache, '_npx');
  for (const entry of existsSync(npxFolder) ? readdirSync(npxFolder) : []) {
    const manifest = join(npxFolder, entry, 'package.json');
    if (!existsSync(manifest)) continue;
    const packages = (JSON.parse(readFileSync(manifest, 'utf8')) as { _npx?: { packages?: string[] } })._npx?.packages;
    if (packages?.includes(spec)) rmSync(join(npxFolder, entry), { recursive: true, force: true });
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

/**
 * What a frontend team's project installs with `npm i -D` beside the kit's tarball: msw of a major, its API client
 * and its test tools; on msw 2, express too, for the kit's middleware, which packed-package.test.ts runs in that
 * project (the two share its install). The app itself needs no express: msw 3's project goes without it, and
 * without the 65 packages it brings (a quarter of the install).
 */
export const teamPackages = (msw: 2 | 3): string[] => [
  `msw@${msw}`,
  ...(msw === 2 ? ['express@5'] : []),
  'openapi-fetch@^0.17',
  'vitest@^4.1',
  'jsdom@^29',
  'happy-dom@^21',
];

/** Whether a process is running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A user's project: `npm i -D <the packed tarball> ...packages` in a new folder, by `npm` on `node` (as
 * `installInto`), made once per test run for every file that asks for the same packages on the same Node
 * (packed-package.test.ts and msw 2's app on Node 20): the first to ask installs it, the others wait for it.
 * The files share it as one project: each writes files of its own names beside what it reads, and none
 * installs or removes a package in it. The run's global setup removes it at the end.
 */
export async function sharedProject(packages: string[], node: string): Promise<{ dir: string; output: string }> {
  const key = createHash('sha256').update(JSON.stringify({ packages, node })).digest('hex').slice(0, 12);
  const root = join(inject('sharedProjects'), key);
  const done = join(root, 'installed.json');
  const owner = join(root, 'installing.pid');
  let installing = true;
  try {
    mkdirSync(root);
  } catch {
    installing = false;
  }
  if (installing) {
    writeFileSync(owner, String(process.pid));
    try {
      const { output } = installInto(root, 'project', ['-D', packTarball(root), ...packages], nodeEnv(node));
      writeFileSync(done, JSON.stringify({ output }));
    } catch (error) {
      writeFileSync(done, JSON.stringify({ error: String(error) }));
    }
  }
  // Another file's install: wait for its end (or for its process's, should it die first).
  while (!existsSync(done)) {
    const pid = existsSync(owner) ? Number(readFileSync(owner, 'utf8')) : undefined;
    if (pid !== undefined && !isRunning(pid) && !existsSync(done)) {
      throw new Error(`the install of ${packages.join(' ')} in ${root} ended without a result`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const result = JSON.parse(readFileSync(done, 'utf8')) as { output?: string; error?: string };
  if (result.error !== undefined) throw new Error(result.error);
  return { dir: join(root, 'project'), output: result.output ?? '' };
}

/** The package.json fields a dependency walk reads. */
interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The folder where Node finds package `name` from `from` (a package's folder or a project's): the nearest one. */
export function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The folders of the installed packages that `names` bring into the project at `projectDir`, theirs included:
 * each package's dependencies, its optional dependencies that are installed and the peer dependencies npm
 * installs (those not marked optional), each found as Node finds it from the package's folder.
 */
export function installedClosure(projectDir: string, names: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string, from: string): void => {
    const dir = resolvePackage(name, from);
    if (!dir || found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const optionalPeer = (peer: string) => manifest.peerDependenciesMeta?.[peer]?.optional === true;
    const needs = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optionalPeer(peer)),
    ];
    for (const dependency of needs) visit(dependency, dir);
  };
  for (const name of names) visit(name, projectDir);
  return found;
}

/** The bytes of a package's files, without the packages installed inside it (node_modules: counted on their own). */
export function packageBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += entry.name === 'node_modules' ? 0 : packageBytes(path);
    else bytes += lstatSync(path).size;
  }
  return bytes;
}
