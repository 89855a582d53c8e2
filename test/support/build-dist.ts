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
 * vitest global setup: builds dist/ once per run (incrementally, so an
 * up-to-date build costs about a second), before any test file starts.
 * Type errors do not stop tsc from emitting; `npm run typecheck` reports them.
 */
export default function buildDist(): void {
  try {
    execFileSync(
      process.execPath,
      [join(packageRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
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
