// The bundles, after tsc (`npm run build`), with their sizes:
// - dist/index.js, msw.js, express.js, browser.js, run-time-compiler.js, precompile.js: the package's entry
//   points, each bundled with the kit's modules it needs (chunks shared between them beside them,
//   dependencies left to import but for the few small ones `inlined` names): Node loads a few files where
//   tsc's output is a hundred, which is most of what an import of the kit costs (docs/performance.md).
//   So is cli.js, `petstore-mock` (and `npm start`): loading its modules was half of the CPU it spent before
//   it listened. tsc's output stays for the other programs (the contract runner, ...);
// - dist/browser/: the MSW entry as one ESM bundle (msw stays external: the page brings its own);
// - dist/ui/: the pages the mock serves (the dashboard, and the reference's start-up script).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// dist/browser/ is this build's alone, and chunks are named by their hash: emptied first (dist/'s chunks
// removed), so that the chunks of earlier builds do not pile up and ship in the package.
rmSync(`${root}/dist/browser`, { recursive: true, force: true });
for (const file of readdirSync(`${root}/dist`)) {
  if (/^chunk-/.test(file)) rmSync(`${root}/dist/${file}`);
}
// The small run-time libraries the first request needs, bundled into the entries rather than imported:
// Node's loader costs several ms for each package it resolves and each file it reads (lossless-json is ten
// files; Ajv's run-time helpers and denque are CommonJS, read through its CJS lexer), which was about half of
// what `import('petstore-kit')` cost. Every other package stays a dependency, imported from node_modules.
const inlined = new Set([
  'lossless-json',
  'denque',
  'fast-deep-equal',
  'ajv/dist/runtime/equal.js',
  'ajv/dist/runtime/ucs2length.js',
  'ajv/dist/runtime/validation_error.js',
  'ajv-formats/dist/formats.js',
]);
/** Leaves every package but the inlined ones to be imported, as esbuild's `packages: 'external'` would. */
const importOtherPackages = {
  name: 'import-other-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => (inlined.has(path) ? undefined : { path, external: true }));
  },
};
const results = [
  await build({
    ...common,
    entryPoints: {
      index: 'src/index.ts',
      msw: 'src/msw.ts',
      express: 'src/express.ts',
      browser: 'src/browser.ts',
      'run-time-compiler': 'src/run-time-compiler.ts',
      precompile: 'src/precompile.ts',
      cli: 'src/cli.ts',
    },
    platform: 'node',
    target: 'node20',
    // Readable: these are what a user's stack traces and debugger show.
    minify: false,
    splitting: true,
    // At dist/'s top, as the entries are: package-root.ts finds the package one level up from either.
    chunkNames: 'chunk-[hash]',
    sourcemap: true,
    plugins: [importOtherPackages],
    outdir: 'dist',
  }),
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
