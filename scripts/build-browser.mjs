// Builds the browser bundle of the MSW entry (dist/browser/), and prints its size:
// `npm run build` runs it after tsc. msw stays external: the page brings its own.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = await build({
  absWorkingDir: root,
  entryPoints: { 'petstore-msw': 'src/msw.ts' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Faker is imported on demand, so a scenario of literal pets never loads it: it lands in a chunk of its own.
  splitting: true,
  minify: true,
  sourcemap: true,
  external: ['msw'],
  outdir: 'dist/browser',
  metafile: true,
  logLevel: 'warning',
});
const quiet = process.argv.includes('--quiet');
for (const file of Object.keys(result.metafile.outputs).filter((name) => name.endsWith('.js'))) {
  const bytes = readFileSync(`${root}/${file}`);
  if (!quiet) {
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    process.stdout.write(
      `${relative(root, `${root}/${file}`)}: ${kb(bytes.length)}, ${kb(gzipSync(bytes).length)} gzip\n`,
    );
  }
}
