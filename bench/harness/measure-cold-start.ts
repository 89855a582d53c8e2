/**
 * What a test runner pays for the kit before and at its first answer, measured on the package as users
 * get it: `npm pack`, installed with msw into an empty folder. Each figure sits beside its baseline from
 * the same run, in alternating rounds of fresh processes, medians:
 *
 * - `import()` of each export, against `import('msw/node')` (and `import('msw')`, the entry
 *   `petstore-kit/msw` imports MSW's handlers from);
 * - the first `createMock()` after the import (cold), a later one (warm), and the first `mock.fetch` after
 *   it, against the first call of a hand-written Fetch handler answering a fixed list;
 * - a suite of 50 vitest files that each set up `petstore-kit/msw` and make three requests, against the
 *   same suite with a hand-written MSW handler.
 *
 * `tsx bench/harness/measure-cold-start.ts [rounds]` (after `npm run build`) prints these alone, as does
 * `npm run bench -- --only cold-start`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/package-root.js';
import { median } from './measure-load.js';

/** The exports whose import is timed, and the baselines beside them. */
export const importedSpecs = [
  'msw/node',
  'msw',
  'petstore-kit',
  'petstore-kit/msw',
  'petstore-kit/express',
  'petstore-kit/browser',
] as const;

/** The entries a user creates a mock from: Node's, and the one the MSW handlers use. */
const mockEntries = ['petstore-kit', 'petstore-kit/msw'] as const;

export interface FirstMockCost {
  entry: string;
  /** The first `createMock()` (and its `ready`) after the import: the document's validators, the first scenario. */
  coldMs: number;
  /** A later `createMock()` in the same process, as a test file that makes a fresh mock per test does. */
  warmMs: number;
  /** The first `mock.fetch` of `GET /v1/pets` after the first `createMock()`, its body read. */
  firstFetchMs: number;
}

export interface ColdStartCost {
  rounds: number;
  /** Median ms of `import()` in a fresh process, by specifier. */
  importMs: Record<(typeof importedSpecs)[number], number>;
  mocks: FirstMockCost[];
  /** The first call of a hand-written Fetch handler (a fixed list, as `new Response`), in a fresh process. */
  handWrittenFetchMs: number;
  /** The first `mock.fetch(url, init)` after the first `createMock()` of `petstore-kit`. */
  urlFetchMs: number;
  /** The two generated vitest suites: wall time of `vitest run`, median of `suiteRounds`. */
  suites: { files: number; rounds: number; kitMs: number; handWrittenMs: number; beforeMs?: number };
  /** With a baseline checkout: its package measured the same way, in the same rounds. */
  before?: { importMs: Partial<Record<(typeof importedSpecs)[number], number>>; mocks: FirstMockCost[] };
}

export interface ColdStartOptions {
  /** Rounds of fresh processes for the imports and the first mock. Default 15. */
  rounds?: number;
  /** Rounds of each vitest suite. Default 3. */
  suiteRounds?: number;
  /** Test files in each suite. Default 50. */
  files?: number;
  /** Another checkout of the kit, built (`--baseline DIR`): measured beside this one, before against after. */
  baseline?: string;
}

/** Runs a module's text in a fresh Node in `folder`; what it printed, as JSON. */
function runFresh<T>(folder: string, script: string): T {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: folder,
    encoding: 'utf8',
  });
  return JSON.parse(output) as T;
}

/** `npm pack` of a built kit (this checkout's by default), installed with msw 2 into a new folder, as a user's project. */
export function installPacked(kit = packageRoot): { folder: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'petstore-cold-start-'));
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', root], { cwd: kit, stdio: 'ignore' });
  const tarball = join(root, readdirSync(root).find((name) => name.endsWith('.tgz')) as string);
  const folder = join(root, 'user');
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), '{ "name": "a-user", "private": true, "type": "module" }\n');
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, 'msw@2'],
    {
      cwd: folder,
      stdio: 'ignore',
    },
  );
  return { folder, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const importScript = (spec: string) => `
  const started = performance.now();
  await import(${JSON.stringify(spec)});
  process.stdout.write(JSON.stringify(performance.now() - started));
`;

/**
 * With a `Request`, it is built before the clock starts: the test builds it, and Node 20 loads its Fetch classes
 * then. With a URL and an init (`url`), as docs/in-process.md shows the call, the clock runs from the call, after
 * the global `Response` is read: Node 20 loads its whole Fetch implementation on the first read of one of its
 * globals (15 to 30 ms on this 2-core machine), which the hand-written handler and the `Request` form pay
 * before their clocks start too.
 */
const mockScript = (entry: string, form: 'request' | 'url' = 'request') => `
  const { createMock } = await import(${JSON.stringify(entry)});
  let at = performance.now();
  const first = createMock();
  await first.ready;
  const coldMs = performance.now() - at;
  const url = 'http://mock.test/v1/pets';
  const init = { headers: { authorization: 'Bearer dev-key' } };
  ${form === 'url' ? 'void Response;' : 'const request = new Request(url, init);'}
  at = performance.now();
  const response = await ${form === 'url' ? 'first.fetch(url, init)' : 'first.fetch(request)'};
  await response.arrayBuffer();
  const firstFetchMs = performance.now() - at;
  const warm = [];
  for (let index = 0; index < 21; index++) {
    at = performance.now();
    const mock = createMock();
    await mock.ready;
    warm.push(performance.now() - at);
  }
  warm.sort((a, b) => a - b);
  if (response.status !== 200) throw new Error('the first fetch answered ' + response.status);
  process.stdout.write(JSON.stringify({ coldMs, warmMs: warm[10], firstFetchMs }));
`;

/** What the first fetch is set against: the least a Fetch handler does, a fixed list answered as JSON. */
const handWrittenFetchScript = `
  const pets = JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  const handle = async (request) =>
    request.headers.get('authorization') === 'Bearer dev-key'
      ? new Response(pets, { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response(null, { status: 401 });
  const request = new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer dev-key' } });
  const at = performance.now();
  const response = await handle(request);
  await response.arrayBuffer();
  process.stdout.write(JSON.stringify(performance.now() - at));
`;

/** Each round runs every script once, starting one further along each time, so that none always runs first. */
function alternate<T>(count: number, scripts: Array<() => T>): T[][] {
  const samples: T[][] = scripts.map(() => []);
  for (let round = 0; round < count; round++) {
    for (let step = 0; step < scripts.length; step++) {
      const index = (round + step) % scripts.length;
      samples[index]?.push((scripts[index] as () => T)());
    }
  }
  return samples;
}

const suiteRequests = `
const base = 'http://api.test/v1';
const headers = { authorization: 'Bearer dev-key' };
it('lists, creates and reads a pet', async () => {
  expect((await fetch(base + '/pets?limit=5', { headers })).status).toBe(200);
  const created = await fetch(base + '/pets', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  const { id } = await created.json();
  expect((await fetch(base + '/pets/' + id, { headers })).status).toBe(200);
});
`;

const kitTestFile = `import { setupServer } from 'msw/node';
import { createMockHandlers } from 'petstore-kit/msw';

const server = setupServer(...createMockHandlers({ baseUrl: 'http://api.test/v1' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
${suiteRequests}`;

const handWrittenTestFile = `import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';

const pets = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }];
const authorized = (request) => request.headers.get('authorization') === 'Bearer dev-key';
const server = setupServer(
  http.get('http://api.test/v1/pets', ({ request }) =>
    authorized(request) ? HttpResponse.json(pets.slice(0, 5)) : new HttpResponse(null, { status: 401 }),
  ),
  http.post('http://api.test/v1/pets', async ({ request }) => {
    const pet = { id: pets.length + 1, ...(await request.json()) };
    pets.push(pet);
    return HttpResponse.json(pet, { status: 201 });
  }),
  http.get('http://api.test/v1/pets/:id', ({ params }) => {
    const pet = pets.find((each) => String(each.id) === params.id);
    return pet ? HttpResponse.json(pet) : new HttpResponse(null, { status: 404 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
${suiteRequests}`;

/** Writes the two suites of `files` test files into the user's folder. */
export function writeSuites(folder: string, files: number): void {
  writeFileSync(join(folder, 'vitest.config.mjs'), 'export default { test: { globals: true, pool: "forks" } };\n');
  for (const [name, text] of [
    ['kit', kitTestFile],
    ['hand-written', handWrittenTestFile],
  ] as const) {
    mkdirSync(join(folder, name), { recursive: true });
    for (let index = 1; index <= files; index++) {
      writeFileSync(join(folder, name, `pets-${String(index).padStart(2, '0')}.test.mjs`), text);
    }
  }
}

/** Wall time of `vitest run <suite>` (the kit's own vitest), failing on a failed suite. */
function runSuite(folder: string, suite: string): number {
  const vitest = join(packageRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const started = performance.now();
  const result = spawnSync(process.execPath, [vitest, 'run', suite, '--root', folder], {
    cwd: folder,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`vitest run ${suite} failed:\n${result.stdout}${result.stderr}`);
  return ms;
}

/** Every figure above, with the baseline checkout's beside them when one is given. */
export function measureColdStart(options: ColdStartOptions = {}): ColdStartCost {
  const { rounds = 15, suiteRounds = 3, files = 50, baseline } = options;
  const after = installPacked();
  const before = baseline === undefined ? undefined : installPacked(baseline);
  try {
    const kitSpecs = importedSpecs.filter((spec) => spec.startsWith('petstore-kit'));
    const importJobs = [
      ...importedSpecs.map((spec) => () => runFresh<number>(after.folder, importScript(spec))),
      ...(before ? kitSpecs.map((spec) => () => runFresh<number>(before.folder, importScript(spec))) : []),
    ];
    const imports = alternate(rounds, importJobs);
    type MockSample = Omit<FirstMockCost, 'entry'>;
    const mockJobs: Array<() => MockSample> = [
      ...mockEntries.map((entry) => () => runFresh<MockSample>(after.folder, mockScript(entry))),
      ...(before ? mockEntries.map((entry) => () => runFresh<MockSample>(before.folder, mockScript(entry))) : []),
      () => ({
        coldMs: Number.NaN,
        warmMs: Number.NaN,
        firstFetchMs: runFresh<number>(after.folder, handWrittenFetchScript),
      }),
      () => runFresh<MockSample>(after.folder, mockScript('petstore-kit', 'url')),
    ];
    const mocks = alternate(rounds, mockJobs);
    writeSuites(after.folder, files);
    if (before) writeSuites(before.folder, files);
    const [kit, handWritten, kitBefore] = alternate(suiteRounds, [
      () => runSuite(after.folder, 'kit/'),
      () => runSuite(after.folder, 'hand-written/'),
      ...(before ? [() => runSuite(before.folder, 'kit/')] : []),
    ]);
    const pick = (samples: MockSample[] | undefined, field: keyof MockSample) =>
      median((samples ?? []).map((sample) => sample[field]));
    const mockRow = (entry: string, samples: MockSample[] | undefined): FirstMockCost => ({
      entry,
      coldMs: pick(samples, 'coldMs'),
      warmMs: pick(samples, 'warmMs'),
      firstFetchMs: pick(samples, 'firstFetchMs'),
    });
    return {
      rounds,
      importMs: Object.fromEntries(importedSpecs.map((spec, index) => [spec, median(imports[index] ?? [])])) as Record<
        (typeof importedSpecs)[number],
        number
      >,
      mocks: mockEntries.map((entry, index) => mockRow(entry, mocks[index])),
      handWrittenFetchMs: pick(mocks[mockJobs.length - 2], 'firstFetchMs'),
      urlFetchMs: pick(mocks[mockJobs.length - 1], 'firstFetchMs'),
      suites: {
        files,
        rounds: suiteRounds,
        kitMs: median(kit ?? []),
        handWrittenMs: median(handWritten ?? []),
        ...(kitBefore ? { beforeMs: median(kitBefore) } : {}),
      },
      ...(before
        ? {
            before: {
              importMs: Object.fromEntries(
                kitSpecs.map((spec, index) => [spec, median(imports[importedSpecs.length + index] ?? [])]),
              ),
              mocks: mockEntries.map((entry, index) => mockRow(entry, mocks[mockEntries.length + index])),
            },
          }
        : {}),
    };
  } finally {
    after.remove();
    before?.remove();
  }
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const times = (value: number, base: number) =>
  Number.isFinite(value / base) ? `${(value / base).toFixed(2)}×` : 'n/a';

/** The figures as Markdown, each beside its baseline, the build before (with `--baseline`) and the issue's goal. */
export function coldStartTable(cost: ColdStartCost): string[] {
  const msw = cost.importMs['msw/node'];
  const before = cost.before;
  const beforeCell = (value: number | undefined, digits = 0) =>
    before ? ` ${fmt(value ?? Number.NaN, digits)} ms |` : '';
  const importRow = (spec: (typeof importedSpecs)[number], goal: string) =>
    `| \`import('${spec}')\` | ${fmt(cost.importMs[spec])} ms |${beforeCell(before?.importMs[spec])} \`import('msw/node')\` ${fmt(msw)} ms | ${times(cost.importMs[spec], msw)} |${before ? ` ${times(before.importMs[spec] ?? Number.NaN, msw)} |` : ''} ${goal} |`;
  const mockRows = cost.mocks.flatMap((row, index) => {
    const old = before?.mocks[index];
    return [
      `| first \`createMock()\` after \`import('${row.entry}')\` | ${fmt(row.coldMs, 1)} ms |${beforeCell(old?.coldMs, 1)} a later one ${fmt(row.warmMs, 2)} ms | ${times(row.coldMs, row.warmMs)} |${before ? ` ${times(old?.coldMs ?? Number.NaN, old?.warmMs ?? Number.NaN)} |` : ''} under 10 ms |`,
      `| first \`mock.fetch\` after it (\`${row.entry}\`) | ${fmt(row.firstFetchMs, 1)} ms |${beforeCell(old?.firstFetchMs, 1)} a hand-written Fetch handler's first call ${fmt(cost.handWrittenFetchMs, 1)} ms | ${times(row.firstFetchMs, cost.handWrittenFetchMs)} |${before ? ` ${times(old?.firstFetchMs ?? Number.NaN, cost.handWrittenFetchMs)} |` : ''} under 5 ms |`,
    ];
  });
  const urlRow = `| first \`mock.fetch(url, init)\` after it (\`petstore-kit\`), as docs/in-process.md shows it | ${fmt(cost.urlFetchMs, 1)} ms |${before ? ' |' : ''} a hand-written Fetch handler's first call ${fmt(cost.handWrittenFetchMs, 1)} ms | ${times(cost.urlFetchMs, cost.handWrittenFetchMs)} |${before ? ' |' : ''} under 5 ms |`;
  const { suites } = cost;
  return [
    `From the package as users get it (\`npm pack\`, installed with msw 2 into an empty folder), fresh processes in ${cost.rounds} alternating rounds, medians${before ? '; "before" is the `--baseline` build, packed and measured the same way in the same rounds' : ''}:`,
    '',
    `| What | petstore-kit |${before ? ' before |' : ''} baseline, same run | ratio |${before ? ' ratio before |' : ''} goal |`,
    `|---|---|${before ? '---|' : ''}---|---|${before ? '---|' : ''}---|`,
    importRow('petstore-kit', 'at most 0.5×'),
    importRow('petstore-kit/msw', 'at most 1.5×'),
    importRow('petstore-kit/express', ''),
    importRow('petstore-kit/browser', ''),
    `| \`import('msw')\`, the entry \`/msw\` takes MSW's handlers from | ${fmt(cost.importMs.msw)} ms |${before ? ' |' : ''} \`import('msw/node')\` ${fmt(msw)} ms | ${times(cost.importMs.msw, msw)} |${before ? ' |' : ''} |`,
    ...mockRows,
    urlRow,
    `| \`vitest run\`, ${suites.files} files each \`setupServer(...createMockHandlers())\` and three requests (${suites.rounds} rounds) | ${fmt(suites.kitMs)} ms |${beforeCell(suites.beforeMs)} the same with a hand-written MSW handler ${fmt(suites.handWrittenMs)} ms | ${times(suites.kitMs, suites.handWrittenMs)} |${before ? ` ${times(suites.beforeMs ?? Number.NaN, suites.handWrittenMs)} |` : ''} |`,
  ];
}

// `tsx bench/harness/measure-cold-start.ts [rounds] [suite rounds] [baseline dir]` (after `npm run build`).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [rounds, suiteRounds, baseline] = process.argv.slice(2);
  const cost = measureColdStart({
    rounds: Number(rounds ?? 15),
    suiteRounds: Number(suiteRounds ?? 3),
    ...(baseline ? { baseline } : {}),
  });
  process.stdout.write(`${coldStartTable(cost).join('\n')}\n`);
}
