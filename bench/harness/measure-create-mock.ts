import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-root.js';
import { median } from './measure-load.js';

/** What `createMock()` costs through one entry of the built package, medians of fresh processes. */
export interface CreateMockCost {
  entry: string;
  /** `import()` of the entry, in a fresh process. */
  importMs: number;
  /** The first `createMock()` (and its `ready`) after the import: compiling the document, the first scenario. */
  coldMs: number;
  /** A later `createMock()` in the same process, as a test file that makes a fresh mock per test does. */
  warmMs: number;
  /** The first `mock.fetch` of `GET /v1/pets` after the first `createMock()`. */
  firstFetchMs: number;
}

/** The entries a user imports `createMock` from: Node's, and the one the MSW handlers use. */
const entries = [
  { entry: 'petstore-kit', file: 'index.js' },
  { entry: 'petstore-kit/msw', file: 'msw.js' },
];

/**
 * Measures `createMock()` cold (the first in a process, right after the
 * import) and warm (the next ones) from dist/, each in `runs` fresh Node
 * processes, so that nothing a previous measure compiled or loaded helps.
 */
export function measureCreateMock(runs = 7): CreateMockCost[] {
  return entries.map(({ entry, file }) => {
    const url = pathToFileURL(join(packageRoot, 'dist', file)).href;
    const script = `
      const started = performance.now();
      const { createMock } = await import(${JSON.stringify(url)});
      const importMs = performance.now() - started;
      let at = performance.now();
      const first = createMock();
      await first.ready;
      const coldMs = performance.now() - at;
      at = performance.now();
      const response = await first.fetch(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer dev-key' } }));
      await response.arrayBuffer();
      const firstFetchMs = performance.now() - at;
      const warm = [];
      for (let index = 0; index < 20; index++) {
        at = performance.now();
        const mock = createMock();
        await mock.ready;
        warm.push(performance.now() - at);
      }
      warm.sort((a, b) => a - b);
      process.stdout.write(JSON.stringify({ importMs, coldMs, firstFetchMs, warmMs: warm[10] }));
    `;
    const samples: Array<Omit<CreateMockCost, 'entry'>> = [];
    for (let run = 0; run < runs; run++) {
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      samples.push(JSON.parse(output) as Omit<CreateMockCost, 'entry'>);
    }
    const pick = (field: keyof Omit<CreateMockCost, 'entry'>) => median(samples.map((sample) => sample[field]));
    return {
      entry,
      importMs: pick('importMs'),
      coldMs: pick('coldMs'),
      warmMs: pick('warmMs'),
      firstFetchMs: pick('firstFetchMs'),
    };
  });
}

// `tsx bench/harness/measure-create-mock.ts [runs]` (after `npm run build`): just these numbers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of measureCreateMock(Number(process.argv[2] ?? 7))) {
    process.stdout.write(
      `${row.entry.padEnd(18)} import ${row.importMs.toFixed(1)} ms, createMock() cold ${row.coldMs.toFixed(1)} ms, warm ${row.warmMs.toFixed(2)} ms, first fetch ${row.firstFetchMs.toFixed(1)} ms\n`,
    );
  }
}
