// The browser builds, after tsc (`npm run build`), with their sizes:
// - dist/browser/: the MSW entry as one ESM bundle (msw stays external: the page brings its own);
// - dist/ui/: the pages the mock serves (the dashboard, and the reference's start-up script).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = process.argv.includes('--quiet');
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  metafile: true,
  logLevel: 'warning',
};

// dist/browser/ is this build's alone, and its chunks are named by their hash: emptied first, so that the
// chunks of earlier builds do not pile up there and ship in the package.
rmSync(`${root}/dist/browser`, { recursive: true, force: true });
const results = [
  await build({
    ...common,
    entryPoints: { 'petstore-msw': 'src/msw.ts' },
    // Faker is imported on demand, so a scenario of literal pets never loads it: it lands in a chunk of its own.
    splitting: true,
    sourcemap: true,
    external: ['msw'],
    outdir: 'dist/browser',
  }),
  await build({
    ...common,
    entryPoints: { dashboard: 'src/ui/dashboard.ts', reference: 'src/ui/reference.ts' },
    outdir: 'dist/ui',
  }),
];
mkdirSync(`${root}/dist/ui`, { recursive: true });
for (const file of ['dashboard.html', 'dashboard.css', 'reference.html'])
  copyFileSync(`${root}/src/ui/${file}`, `${root}/dist/ui/${file}`);
// swagger-ui's assets ship inside dist/, so that an installed kit does not depend on swagger-ui-dist
// (and on the install-time analytics script that package pulls in).
const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
mkdirSync(`${root}/dist/ui/swagger-ui`, { recursive: true });
for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'])
  copyFileSync(join(swagger, file), `${root}/dist/ui/swagger-ui/${file}`);
for (const file of ['LICENSE', 'NOTICE']) copyFileSync(join(swagger, file), `${root}/dist/ui/swagger-ui/${file}.txt`);

if (!quiet) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const files = results
    .flatMap((result) => Object.keys(result.metafile.outputs))
    .filter((name) => name.endsWith('.js'));
  for (const file of [...files, 'dist/ui/dashboard.html', 'dist/ui/dashboard.css']) {
    const bytes = readFileSync(`${root}/${file}`);
    process.stdout.write(`${file}: ${kb(bytes.length)}, ${kb(gzipSync(bytes).length)} gzip\n`);
  }
}

// The last step of every build: scripts/ensure-built.mjs compares the sources with this stamp
// (tsc's incremental build leaves unchanged outputs with their old times).
writeFileSync(`${root}/dist/.built`, `${new Date().toISOString()}\n`);
