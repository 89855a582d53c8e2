/**
 * A longer fuzzing campaign than `npm test` runs, with the same generators and
 * properties (test/fuzz/support):
 *
 *   npm run fuzz -- --runs 100000 [--seed 42] [--kind mixed] [--timeout-ms 5000]
 *
 * The mock runs in this process on an ephemeral port of 127.0.0.1. Prints
 * progress every 5 s and a summary; exits 1 with fast-check's counterexample
 * (shrunk) when a property fails, 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import type { FuzzRequestKind } from '../test/fuzz/support/fuzz-requests.js';
import { createScriptUsage } from './harness/script-usage.js';

const kinds: FuzzRequestKind[] = ['routes', 'queries', 'headers', 'bodies', 'mixed'];

const script = createScriptUsage(
  'fuzz',
  `npm run fuzz -- --runs N [--seed S] [--kind ${kinds.join('|')}] [--timeout-ms MS]`,
);
const { positiveInteger } = script;

// A declaration, so that TypeScript knows a call never returns.
function usage(message: string): never {
  return script.fail(message);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      kind: { type: 'string' },
      'timeout-ms': { type: 'string' },
    },
    strict: true,
  }));
} catch (error) {
  usage((error as Error).message);
}
const runs = positiveInteger(values.runs as string | undefined, '--runs', 10_000);
const seedText = values.seed as string | undefined;
if (seedText !== undefined && !/^-?\d+$/.test(seedText)) usage(`--seed must be an integer, got ${seedText}`);
const seed = seedText === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedText) | 0;
const kind = (values.kind ?? 'mixed') as FuzzRequestKind;
if (!kinds.includes(kind)) usage(`--kind must be one of ${kinds.join(', ')}`);
const timeoutMs = positiveInteger(values['timeout-ms'] as string | undefined, '--timeout-ms', 5_000);

// The kit and the generators, loaded once the flags are read: a usage error (and `--help`) answers at once.
const [
  { default: fc },
  { createNodeMock },
  { createNodeListener },
  { startServer },
  { createFuzzHarness },
  { fuzzRequests },
] = await Promise.all([
  import('fast-check'),
  import('../src/node/create-node-mock.js'),
  import('../src/node/node-listener.js'),
  import('../test/support/start-server.js'),
  import('../test/fuzz/support/create-fuzz-harness.js'),
  import('../test/fuzz/support/fuzz-requests.js'),
]);

const key = 'fuzz-key';
const bodyLimit = 1024 * 1024;
const scenario = 'one-of-each-status';
const nodeMock = createNodeMock({ keys: [key], scenario, bodyLimit });
const store = nodeMock.store;
const mock = await startServer(createNodeListener(nodeMock));
const harness = createFuzzHarness({ origin: mock.origin, store, key, bodyLimit, timeoutMs, resetEvery: 100, scenario });
const arbitrary = fuzzRequests({
  key,
  bodyLimit,
  scenarios: ['default', 'empty', 'one-of-each-status', 'large', 'edge-cases'],
})[kind];

process.stdout.write(`fuzz: ${runs} ${kind} requests against ${mock.origin} (seed ${seed})\n`);
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const progress = setInterval(() => {
  const seconds = elapsed();
  process.stdout.write(
    `  ${harness.sent} requests in ${seconds.toFixed(0)} s (${(harness.sent / seconds).toFixed(0)}/s), store ${store.collection('pets').size} pets\n`,
  );
}, 5_000);
const details = await fc.check(harness.property(arbitrary), { seed, numRuns: runs });
clearInterval(progress);
const health = await harness.checkHealth();
harness.close();
await mock.close();

const seconds = elapsed();
const statuses = [...harness.statuses.entries()]
  .sort(([a], [b]) => a - b)
  .map(([status, count]) => `${status === 0 ? 'none' : status}: ${count}`)
  .join(', ');
process.stdout.write(
  [
    `fuzz: ${details.numRuns} runs (${harness.sent} requests with resets and shrinking) in ${seconds.toFixed(1)} s, ${(harness.sent / seconds).toFixed(0)} requests/s`,
    `  statuses  ${statuses}`,
    `  health    ${health.length === 0 ? 'the mock still answers, and lists what its store holds' : health.join('; ')}`,
    '',
  ].join('\n'),
);
if (details.failed) {
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  process.stdout.write(`\nfuzz: a property failed (seed ${seed})\n${fc.defaultReportMessage(details)}\n${cause}\n`);
  process.exit(1);
}
if (health.length > 0) process.exit(1);
process.stdout.write(`fuzz: every property held (seed ${seed})\n`);
