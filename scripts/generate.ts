/**
 * `npm run generate`: writes what is derived from openapi.yaml and fixtures/
 * into src/generated/, so that no type, field list or scenario is written
 * twice by hand, and the browser build needs no file system:
 *
 * - openapi-types.ts: the TypeScript types (openapi-typescript), with int64
 *   integers typed `number | bigint`, as the runtime holds them;
 * - default-document.ts: openapi.yaml as an object;
 * - default-fixtures.ts: the scenarios of fixtures/ as objects.
 *
 * `--check` writes nothing and exits 1 when a file is stale (the tests run it
 * in-process through `generatedFiles`).
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { generatedFiles } from './generated-files.js';

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const file of await generatedFiles()) {
  let current = '';
  try {
    current = readFileSync(file.path, 'utf8');
  } catch {
    // A missing file is stale.
  }
  if (current === file.text) continue;
  stale.push(file.path);
  if (!check) writeFileSync(file.path, file.text);
}
if (check && stale.length > 0) {
  process.stderr.write(`stale (run npm run generate): ${stale.join(', ')}\n`);
  process.exitCode = 1;
} else if (!check) {
  process.stdout.write(stale.length === 0 ? 'generated files are up to date\n' : `wrote ${stale.join(', ')}\n`);
}
