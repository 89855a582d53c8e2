import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';

/** The programs the CLI tests run as users do: built, from dist/. */
export const builtPrograms = {
  mock: join(packageRoot, 'dist', 'cli.js'),
  dashboard: join(packageRoot, 'dist', 'ui', 'dashboard.js'),
  contract: join(packageRoot, 'dist', 'contract', 'cli.js'),
  dredd: join(packageRoot, 'dist', 'contract', 'dredd-cli.js'),
};

/**
 * vitest global setup: builds dist/ once per run, before any test file starts. In tsc's build mode
 * (`-b`), an up-to-date dist/ (the one `npm ci` built, by the `prepare` script) is seen from the files'
 * times and tsc's build info without compiling anything: a tenth of the CPU of `-p` with `incremental`,
 * which reads and hashes every source again. Type errors do not stop tsc from emitting; `npm run
 * typecheck` reports them.
 */
export default function buildDist(): void {
  try {
    execFileSync(
      process.execPath,
      [join(packageRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
      {
        cwd: packageRoot,
        stdio: 'pipe',
      },
    );
  } catch {
    // Reported by the typecheck script; what matters here is that the programs exist.
  }
  // The bundles: the package's entry points, the browser's MSW bundle and the pages the mock serves.
  execFileSync(process.execPath, [join(packageRoot, 'scripts/build-bundles.mjs'), '--quiet'], {
    cwd: packageRoot,
    stdio: 'pipe',
  });
  for (const program of Object.values(builtPrograms)) {
    if (!existsSync(program)) throw new Error(`the build did not produce ${program}`);
  }
}
