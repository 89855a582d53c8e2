import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packageRoot } from '../../src/package-root.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The kit as `npm pack` makes it from this checkout (dist/ as the global setup built it). */
    packedTarball: string;
    /** A folder of this run for the projects test files share (test/support/packed-package.ts), removed at its end. */
    sharedProjects: string;
  }
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Where packed tarballs are kept between runs, one folder per content hash. */
const cacheRoot = join(packageRoot, 'node_modules', '.cache', 'petstore-kit-packed');

/** Every file under `path` (a file or a folder), as paths relative to the package root. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [relative(packageRoot, path)];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(packageRoot, join(entry.parentPath, entry.name)));
}

/**
 * A hash of what goes into the tarball: package.json's `files`, and what npm always adds (package.json,
 * README, LICENSE), by path and content. A file npm leaves out of a listed folder only costs a pack too many.
 */
export function packedContentHash(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] };
  const paths = [...manifest.files, 'package.json', 'README.md', 'LICENSE']
    .flatMap((entry) => filesUnder(join(packageRoot, entry)))
    // The build's time stamp (scripts/build-bundles.mjs) says when, not what: a rebuild of the same code is the same.
    .filter((path) => path !== join('dist', '.built'))
    .sort();
  const hash = createHash('sha256');
  for (const path of [...new Set(paths)]) hash.update(`${path}\0`).update(readFileSync(join(packageRoot, path)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * vitest global setup, after build-dist: packs the kit once for every test that installs it, as
 * `npm pack` does, reusing the tarball of an earlier run when nothing that goes into it changed.
 * The tests get its path with `inject('packedTarball')`, and the run's folder for the projects
 * several files install alike with `inject('sharedProjects')` (removed when the run ends).
 */
export default function packedTarball(project: TestProject): () => void {
  const folder = join(cacheRoot, packedContentHash());
  const tarballIn = (dir: string) => readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!existsSync(folder) || !tarballIn(folder)) {
    mkdirSync(cacheRoot, { recursive: true });
    // Older tarballs are of content that no longer is: one kept at a time.
    for (const old of readdirSync(cacheRoot)) rmSync(join(cacheRoot, old), { recursive: true, force: true });
    const packing = mkdtempSync(join(cacheRoot, 'packing-'));
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', packing], {
      cwd: packageRoot,
      stdio: 'ignore',
    });
    renameSync(packing, folder);
  }
  const name = tarballIn(folder);
  if (!name) throw new Error(`npm pack left no tarball in ${folder}`);
  project.provide('packedTarball', join(folder, name));
  const sharedProjects = mkdtempSync(join(tmpdir(), 'petstore-shared-'));
  project.provide('sharedProjects', sharedProjects);
  return () => rmSync(sharedProjects, { recursive: true, force: true });
}
