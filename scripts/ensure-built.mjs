// Builds dist/ only when a source is newer than it, so that `npm start` starts
// at once after the build `npm install` already ran (the `prepare` script),
// and still picks up an edit to src/. Prints what it did only when it builds.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', '.built');
const sources = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build-bundles.mjs'];

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changedAt = Math.max(...sources.map((source) => newest(join(root, source))));
if (changedAt > builtAt) {
  process.stderr.write(
    builtAt === 0 ? 'Building dist/ (first start)…\n' : 'Sources changed since the last build: rebuilding dist/…\n',
  );
  const npm = process.env.npm_execpath;
  // Through the npm that runs us when there is one, so that the same `build` script runs as `npm run build`.
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', '--silent', 'build'], {
        cwd: root,
        stdio: 'inherit',
        shell: process.platform === 'win32',
      });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
