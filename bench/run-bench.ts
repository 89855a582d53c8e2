/**
 * `npm run bench [-- --quick] [-- --rounds N --seconds S] [-- --baseline DIR] [-- --only proxy|mock|redis]`:
 * the performance harness (`-- --help` prints the options).
 *
 * Starts, on 127.0.0.1, raw node:http answering a precomputed body (the floor),
 * the mock (default settings but `--log-level warn`), bare Express 5 serving a
 * precomputed array through `res.json`, and Prism's static mock (silent) on the
 * same openapi.yaml; with `--baseline DIR`, also the mock built in DIR (an
 * earlier checkout, `DIR/dist/cli.js`), so that before and after are measured
 * in the same run. Measures req/s, p50 and p99 per route with wrk (one thread,
 * 10 connections; autocannon when wrk is missing) in alternating rounds,
 * start-up to the first 200 and RSS after load; then the in-process entries
 * (core, mock.fetch, MSW), the cold start (imports, the first mock and its first answer, a vitest suite, from
 * `npm pack`), logging cost, store scale and the contract suite.
 * Prints medians and ratios, and writes bench/results.json, bench/results.md
 * and the table in docs/performance.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { format } from 'prettier';
import { packageRoot } from '../src/package-root.js';
import { generateItems } from '../src/core/seed/generate-items.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryStore } from '../src/core/store/memory-store.js';
import { createRevisionCounter } from '../src/core/store/revision-counter.js';
import { createScenario } from '../src/core/store/scenario.js';
import { kitPetShape, kitPetFields } from './harness/kit-pets.js';
import type { ExactPet } from '../src/core/types/api-types.js';
import { coldStartTable, measureColdStart } from './harness/measure-cold-start.js';
import { measureInProcess, measureSessionCost } from './harness/measure-in-process.js';
import { measureIdleSessions } from './harness/measure-sessions.js';
import { measureRedis, redisTable, type RedisRoute } from './harness/measure-redis.js';
import { noRedisServer } from '../test/support/redis-server.js';
import { loadGenerator, measureLoad, median, type LoadRequest, type LoadResult } from './harness/measure-load.js';
import { startServerProcess, type ServerProcess, type ServerSpec } from './harness/server-process.js';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'warm-up': { type: 'string' },
    baseline: { type: 'string' },
    only: { type: 'string' },
    'no-docs': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help === true) {
  process.stdout.write(
    [
      'usage: npm run bench -- [options]',
      '  --quick            one round of 2 s per route (default: 3 rounds of 5 s)',
      '  --rounds N         alternating rounds per route and server',
      '  --seconds S        seconds per route in each round',
      '  --warm-up S        seconds of each route before its count, on every server (default: 3; 1 with --quick)',
      '  --baseline DIR     also measure the mock built in DIR (DIR/dist/cli.js), in the same rounds',
      '  --only proxy       the proxy section alone; nothing is written',
      '  --only mock        raw node:http, the floors, the mock and the --baseline build alone; nothing is written',
      '  --only scale       start-up and idle RSS with the default scenario and 1k, 100k and 1M pets; nothing is written',
      '  --only redis       the Redis store: one and two replicas on a redis-server beside the memory store; nothing is written',
      '  --no-docs          do not rewrite the table in docs/performance.md',
      '',
    ].join('\n'),
  );
  process.exit(0);
}
const quick = flags.quick === true;
const rounds = Number(flags.rounds ?? (quick ? 1 : 3));
const seconds = Number(flags.seconds ?? (quick ? 2 : 5));
/**
 * Each route's own warm-up before its count, on every server alike. V8 compiles a route's path over its first
 * seconds (on Node 20, TurboFan took 0.4 s of a 3 s count of the mock's list after a 1 s warm-up, 0.08 s after
 * 2 s, `node --trace-opt`); a count that starts earlier measures the compiler beside the request.
 */
const warmUpSeconds = Number(flags['warm-up'] ?? (quick ? 1 : 3));
const baselineCli = flags.baseline === undefined ? undefined : join(resolve(flags.baseline), 'dist', 'cli.js');
if (baselineCli && !existsSync(baselineCli))
  throw new Error(`--baseline: ${baselineCli} does not exist (build that checkout first)`);
const generator = await loadGenerator();

const key = 'dev-key';
const auth = { Authorization: `Bearer ${key}` };
const node = process.execPath;
/** The Node flags `npm start` gives the mock (see package.json). */
const mockNodeFlags = ['--max-semi-space-size=64'];
const mockCli = join(packageRoot, 'dist', 'cli.js');

function mockSpec(extraArgs: string[] = [], name = 'mock', cli = mockCli): ServerSpec {
  return {
    name,
    command: node,
    args: [...mockNodeFlags, cli, '--port', '{port}', '--log-level', 'warn', ...extraArgs],
    probe: '/v1/pets?limit=1',
    headers: auth,
  };
}

/**
 * The throughput rounds' mocks hold every create of a round (its warm-up and its count, about 200,000 at most on
 * this machine) rather than being reset between them: a reset is a request of another kind, and V8 deoptimises
 * the create's path when it comes (64 deoptimisations in the next two seconds, `--trace-deopt`), which the count
 * would then measure.
 */
const countedCreates = ['--max-pets', '2000000'];

/** A server of the throughput rounds; `only` names the routes it serves (every route when absent). */
type BenchServer = { spec: ServerSpec; prefix: string; only?: readonly string[] };

const allServers: BenchServer[] = [
  {
    spec: {
      name: 'raw',
      command: node,
      args: [join(packageRoot, 'bench', 'servers', 'raw-node.mjs'), '{port}'],
      probe: '/v1/pets',
      headers: auth,
    },
    prefix: '/v1',
  },
  {
    // The write floor: parses the body, appends it, answers it (POST only).
    spec: {
      name: 'floor',
      command: node,
      args: [join(packageRoot, 'bench', 'servers', 'parse-append-node.mjs'), '{port}'],
      probe: '/v1/pets',
      headers: auth,
    },
    prefix: '/v1',
    only: ['POST /pets'],
  },
  { spec: mockSpec(countedCreates), prefix: '/v1' },
  ...(baselineCli ? [{ spec: mockSpec(countedCreates, 'before', baselineCli), prefix: '/v1' }] : []),
  {
    spec: {
      name: 'express',
      command: node,
      args: [join(packageRoot, 'bench', 'servers', 'bare-express.mjs'), '{port}'],
      probe: '/v1/pets',
      headers: auth,
    },
    prefix: '/v1',
  },
  {
    spec: {
      name: 'prism',
      command: node,
      args: [
        join(packageRoot, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
        'mock',
        join(packageRoot, 'openapi.yaml'),
        '--port',
        '{port}',
        '--host',
        '127.0.0.1',
        '-v',
        'silent',
      ],
      probe: '/pets?limit=1',
      headers: auth,
      env: { SCARF_ANALYTICS: 'false' },
    },
    prefix: '',
  },
];

/** The routes; `resetFirst`: the Redis rounds empty the shared store before a create's count. */
const routes: Array<{ name: string; request: (prefix: string) => LoadRequest; resetFirst?: boolean }> = [
  { name: 'GET /pets?limit=20', request: (p) => ({ method: 'GET', path: `${p}/pets?limit=20`, headers: auth }) },
  {
    name: 'GET /pets?status=sold&limit=100',
    request: (p) => ({ method: 'GET', path: `${p}/pets?status=sold&limit=100`, headers: auth }),
  },
  { name: 'GET /pets/{id}', request: (p) => ({ method: 'GET', path: `${p}/pets/1`, headers: auth }) },
  {
    name: 'POST /pets',
    request: (p) => ({
      method: 'POST',
      path: `${p}/pets`,
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Bench","categoryId":1,"status":"available"}',
    }),
    resetFirst: true,
  },
];

/** A load run on a server process, with the CPU the server used per request (µs, utime + stime over the run). */
async function measureServer(
  server: ServerProcess,
  request: LoadRequest,
  runSeconds: number,
): Promise<LoadResult & { cpuMicros: number }> {
  const before = server.cpuMs();
  const result = await measureLoad(generator, server.origin, request, runSeconds);
  const used = server.cpuMs() - before;
  return { ...result, cpuMicros: result.requests > 0 ? (used * 1000) / result.requests : Number.NaN };
}

const fmt = (value: number, digits = 0): string => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

async function throughput(servers = allServers) {
  const samples = new Map<string, Array<LoadResult & { cpuMicros: number }>>();
  const startups = new Map<string, number[]>();
  const rss = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    // Alternate the order every round so that no server always runs first (or last) on a noisy machine.
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const { spec, prefix, only } of order) {
      const server = await startServerProcess(spec);
      try {
        startups.set(spec.name, [...(startups.get(spec.name) ?? []), server.startupMs]);
        const served = routes.filter((route) => !only || only.includes(route.name));
        for (const route of served) {
          await measureLoad(generator, server.origin, route.request(prefix), warmUpSeconds);
          const result = await measureServer(server, route.request(prefix), seconds);
          const id = `${spec.name}|${route.name}`;
          samples.set(id, [...(samples.get(id) ?? []), result]);
          process.stdout.write(
            `  round ${round + 1} ${spec.name.padEnd(8)} ${route.name.padEnd(32)} ${fmt(result.requestsPerSecond).padStart(7)} req/s  ${fmt(result.cpuMicros, 1).padStart(6)} µs CPU/req  p99 ${result.p99Ms} ms${result.non2xx ? `  (${result.non2xx} non-2xx!)` : ''}\n`,
          );
        }
        rss.set(spec.name, [...(rss.get(spec.name) ?? []), server.rssMiB()]);
      } finally {
        await server.stop();
      }
    }
  }
  const table = routes.map((route) => {
    const pick = (name: string, field: keyof LoadResult | 'cpuMicros') =>
      median((samples.get(`${name}|${route.name}`) ?? []).map((sample) => sample[field]));
    const row = Object.fromEntries(
      servers.map(({ spec }) => [
        spec.name,
        {
          requestsPerSecond: pick(spec.name, 'requestsPerSecond'),
          p50Ms: pick(spec.name, 'p50Ms'),
          p99Ms: pick(spec.name, 'p99Ms'),
          non2xx: pick(spec.name, 'non2xx'),
          cpuMicros: pick(spec.name, 'cpuMicros'),
        },
      ]),
    ) as Record<string, { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; cpuMicros: number }>;
    return { route: route.name, servers: row };
  });
  return {
    table,
    startupMs: Object.fromEntries(servers.map(({ spec }) => [spec.name, median(startups.get(spec.name) ?? [])])),
    rssMiB: Object.fromEntries(servers.map(({ spec }) => [spec.name, median(rss.get(spec.name) ?? [])])),
  };
}

/** Over HTTP: the same list in the default session and in a named one, alternated. */
async function sessionsOverHttp() {
  const results: Record<string, number[]> = { default: [], session: [] };
  const server = await startServerProcess(mockSpec());
  try {
    const plain = routes[0]!.request('/v1');
    const named: LoadRequest = { ...plain, headers: { ...plain.headers, 'Petstore-Session': 'bench-worker-1' } };
    await measureLoad(generator, server.origin, plain, 1);
    for (let round = 0; round < rounds; round++) {
      for (const [name, request] of round % 2 === 0
        ? ([
            ['default', plain],
            ['session', named],
          ] as const)
        : ([
            ['session', named],
            ['default', plain],
          ] as const)) {
        results[name]!.push((await measureLoad(generator, server.origin, request, seconds)).requestsPerSecond);
      }
    }
  } finally {
    await server.stop();
  }
  return { defaultRequestsPerSecond: median(results.default!), sessionRequestsPerSecond: median(results.session!) };
}

/**
 * The validating proxy's cost: the same list straight from the mock, through
 * petstore-mock proxy, and through Prism's proxy (which validates too), in
 * front of the same mock, alternated.
 */
const proxyNames = {
  direct: 'the mock, directly',
  'bare proxy': 'a bare node:http pass-through proxy',
  proxy: '`petstore-mock proxy`',
  'proxy before': '`petstore-mock proxy`, the `--baseline` build',
  'prism proxy': "Prism's proxy",
} as const;

async function proxyCost() {
  const upstream = await startServerProcess(mockSpec());
  const proxySpec = (name: string, cli: string): ServerSpec => ({
    name,
    command: node,
    args: [
      ...mockNodeFlags,
      cli,
      'proxy',
      '--upstream',
      `${upstream.origin}/v1`,
      '--port',
      '{port}',
      '--log-level',
      'warn',
    ],
    probe: '/v1/pets?limit=1',
    headers: auth,
  });
  const ours = await startServerProcess(proxySpec('proxy', mockCli));
  const bare = await startServerProcess({
    name: 'bare proxy',
    command: node,
    args: [join(packageRoot, 'bench', 'servers', 'bare-proxy.mjs'), '{port}', upstream.origin],
    probe: '/v1/pets?limit=1',
    headers: auth,
  });
  // The proxy of the build given with --baseline, in front of the same mock, measured in the same rounds.
  const before = baselineCli ? await startServerProcess(proxySpec('proxy before', baselineCli)) : undefined;
  const prism = await startServerProcess({
    name: 'prism proxy',
    command: node,
    args: [
      join(packageRoot, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'proxy',
      join(packageRoot, 'openapi.yaml'),
      `${upstream.origin}/v1`,
      '--port',
      '{port}',
      '--host',
      '127.0.0.1',
      '-v',
      'silent',
    ],
    probe: '/pets?limit=1',
    headers: auth,
    env: { SCARF_ANALYTICS: 'false' },
  });
  const targets = [
    { name: 'direct', server: upstream, path: '/v1/pets?limit=20' },
    { name: 'bare proxy', server: bare, path: '/v1/pets?limit=20' },
    { name: 'proxy', server: ours, path: '/v1/pets?limit=20' },
    ...(before ? [{ name: 'proxy before', server: before, path: '/v1/pets?limit=20' }] : []),
    { name: 'prism proxy', server: prism, path: '/pets?limit=20' },
  ];
  const samples = new Map<string, Array<LoadResult & { cpuMicros: number }>>();
  try {
    for (const target of targets)
      await measureLoad(generator, target.server.origin, { method: 'GET', path: target.path, headers: auth }, 1);
    for (let round = 0; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        // The CPU of the server measured alone: the proxy's own, not the mock's behind it.
        const result = await measureServer(target.server, { method: 'GET', path: target.path, headers: auth }, seconds);
        samples.set(target.name, [...(samples.get(target.name) ?? []), result]);
      }
    }
  } finally {
    await Promise.all([prism.stop(), ours.stop(), bare.stop(), before?.stop(), upstream.stop()]);
  }
  const pick = (name: string, field: keyof LoadResult | 'cpuMicros') =>
    median((samples.get(name) ?? []).map((sample) => sample[field]));
  type Measured = { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuMicros: number };
  return Object.fromEntries(
    targets.map(({ name }) => [
      name,
      {
        requestsPerSecond: pick(name, 'requestsPerSecond'),
        p50Ms: pick(name, 'p50Ms'),
        p99Ms: pick(name, 'p99Ms'),
        cpuMicros: pick(name, 'cpuMicros'),
      },
    ]),
  ) as Record<'direct' | 'bare proxy' | 'proxy' | 'prism proxy', Measured> & Partial<Record<'proxy before', Measured>>;
}

async function loggingCost() {
  const results: Record<string, number[]> = { warn: [], info: [] };
  for (let round = 0; round < rounds; round++) {
    for (const level of round % 2 === 0 ? ['info', 'warn'] : ['warn', 'info']) {
      const spec = mockSpec([], `mock (${level})`);
      spec.args = spec.args.map((arg) => (arg === 'warn' ? level : arg));
      const server = await startServerProcess(spec);
      try {
        await measureLoad(generator, server.origin, routes[0]!.request('/v1'), 1);
        results[level]!.push(
          (await measureLoad(generator, server.origin, routes[0]!.request('/v1'), seconds)).requestsPerSecond,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const warn = median(results.warn!);
  const info = median(results.info!);
  return { warnRequestsPerSecond: warn, infoRequestsPerSecond: info, infoOverWarn: info / warn };
}

/** In-process: the cost of one filtered page of 100 for a rare status, as the store grows. */
function storeScale() {
  const sizes = quick ? [1_000, 100_000, 1_000_000] : [1_000, 100_000, 1_000_000];
  const rows = sizes.map((size) => {
    const seedStarted = performance.now();
    const pets = generateItems({
      collection: kitPetShape.name,
      idField: kitPetShape.idField,
      count: size,
      seed: 1,
      fields: kitPetFields,
    }) as ExactPet[];
    const seedMs = performance.now() - seedStarted;
    // Make 'sold' rare (1 pet in 1000) and spread over the whole id range: the worst case for filter-then-slice.
    const rare: ExactPet[] = pets.map((pet, index) => ({
      ...pet,
      status: index % 1000 === 999 ? 'sold' : 'available',
    }));
    const revisions = createRevisionCounter();
    const scenario = createScenario(`scale-${size}`, { [kitPetShape.name]: rare }, [kitPetShape], revisions);
    const store = new MemoryStore({ shapes: [kitPetShape], revisions });
    store.load(scenario);
    const stored = store.collection<ExactPet>(kitPetShape.name);
    const firstWrite = measureFirstWrite(() => {
      const fresh = new MemoryStore({ shapes: [kitPetShape], revisions });
      fresh.load(scenario);
      return fresh;
    });
    const perCall = (fn: () => unknown): number => {
      const timings: number[] = [];
      for (let sample = 0; sample < 9; sample++) {
        const started = performance.now();
        for (let call = 0; call < 20_000; call++) fn();
        timings.push(((performance.now() - started) * 1000) / 20_000);
      }
      return median(timings);
    };
    const sold = { limit: 100, filters: { status: 'sold' } };
    const indexedMicros = perCall(() => stored.list(sold));
    const pageSize = stored.list(sold).length;
    const all = stored.all();
    const naiveMicros =
      size <= 100_000
        ? perCall(() => all.filter((pet) => pet.status === 'sold').slice(0, 100))
        : (() => {
            const started = performance.now();
            for (let call = 0; call < 20; call++) all.filter((pet) => pet.status === 'sold').slice(0, 100);
            return ((performance.now() - started) * 1000) / 20;
          })();
    return { pets: size, seedMs, indexedMicros, pageSize, naiveMicros, firstWrite };
  });
  return rows;
}

/** `gc()`, exposed at run time, so that the heap a first write keeps is measured without what it left to collect. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * A session's first write over a shared scenario: its time, and the heap it
 * keeps (the store and what it holds, after a full collection), median of 9
 * fresh stores. Before the generic store, the first write copied the
 * scenario's indexes (issue 24: 172 ms and 82 MiB at 1,000,000 pets).
 */
function measureFirstWrite(fresh: () => MemoryStore): { ms: number; keptMiB: number } {
  const times: number[] = [];
  const kept: number[] = [];
  for (let sample = 0; sample < 9; sample++) {
    const store = fresh();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const pets = store.collection(kitPetShape.name);
    pets.create({ name: 'First write', categoryId: 1 });
    times.push(performance.now() - started);
    collectGarbage();
    kept.push((process.memoryUsage().heapUsed - before) / 2 ** 20);
    if (pets.size === 0) throw new Error('the store lost its scenario');
  }
  return { ms: median(times), keptMiB: Math.max(0, median(kept)) };
}

/** Over HTTP: start-up, filtered-list throughput and RSS of the mock seeded with 1k, 100k and 1M pets. */
async function httpScale() {
  const rows = [];
  for (const pets of [1_000, 100_000, 1_000_000]) {
    const server = await startServerProcess(
      mockSpec(['--pets', String(pets), '--max-pets', String(Math.max(pets, 100_000))], 'mock'),
    );
    try {
      const idleRss = server.rssMiB();
      const request: LoadRequest = { method: 'GET', path: '/v1/pets?status=sold&limit=100', headers: auth };
      await measureLoad(generator, server.origin, request, 1);
      const result = await measureLoad(generator, server.origin, request, quick ? 2 : seconds);
      rows.push({ pets, startupMs: server.startupMs, idleRssMiB: idleRss, loadedRssMiB: server.rssMiB(), ...result });
    } finally {
      await server.stop();
    }
  }
  return rows;
}

async function contractRun() {
  const server = await startServerProcess(mockSpec());
  const timings: number[] = [];
  try {
    for (let run = 0; run < (quick ? 1 : 3); run++) {
      const started = performance.now();
      try {
        execFileSync(node, [join(packageRoot, 'dist', 'contract', 'cli.js'), '--base-url', `${server.origin}/v1`], {
          env: { ...process.env, CONTRACT_TOKEN: key },
          stdio: 'ignore',
        });
      } catch {
        throw new Error('the contract suite failed against the local mock');
      }
      timings.push(performance.now() - started);
    }
  } finally {
    await server.stop();
  }
  return { medianMs: median(timings), runs: timings.length };
}

/**
 * The Redis store beside the memory store (bench/harness/measure-redis.ts): reads and writes, one and two
 * replicas, CPU of the mock and of redis-server, Redis commands per request, latency at 1,000 requests/s.
 * Skipped, saying why, without a redis-server.
 */
async function redisStore() {
  if (noRedisServer !== undefined) {
    process.stdout.write(`  skipped: ${noRedisServer}\n`);
    return undefined;
  }
  const redisRoutes: RedisRoute[] = routes
    .filter((route) => route.name !== 'GET /pets?status=sold&limit=100')
    .map((route) => ({
      name: route.name,
      request: route.request('/v1'),
      ...(route.resetFirst ? { resetFirst: true } : {}),
    }));
  return measureRedis(
    {
      rounds,
      seconds,
      generator,
      mockSpec: (extraArgs, name) => mockSpec(extraArgs, name),
      log: (line) => process.stdout.write(`${line}\n`),
    },
    redisRoutes,
  );
}

type Row = { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuMicros: number };

/** The floor a route is held against: the parse-and-append server for a create, raw node:http for a read. */
const floorOf = (route: string): 'floor' | 'raw' => (route.startsWith('POST') ? 'floor' : 'raw');
const floorNames = { raw: 'raw node:http, a fixed body', floor: 'node:http parse-and-append' } as const;

/**
 * Issue 35's goal for the server's CPU per request: the mock against the route's floor, from the same run
 * (and the --baseline build against the same floor).
 */
function floorTable(table: Awaited<ReturnType<typeof throughput>>['table']): string[] {
  const lines = [
    `| Route | floor | floor CPU µs/req | mock CPU µs/req | mock × floor |${baselineCli ? ' before CPU µs/req | before × floor | mock / before |' : ''} goal | floor req/s | mock req/s |${baselineCli ? ' before req/s |' : ''}`,
    `|---|---|---|---|---|${baselineCli ? '---|---|---|' : ''}---|---|---|${baselineCli ? '---|' : ''}`,
  ];
  for (const row of table) {
    const server = row.servers as Record<string, Row>;
    const floor = floorOf(row.route);
    const get = (name: string, field: keyof Row) => server[name]?.[field] ?? Number.NaN;
    const cpu = (name: string) => get(name, 'cpuMicros');
    lines.push(
      `| \`${row.route}\` | ${floorNames[floor]} | ${fmt(cpu(floor), 1)} | ${fmt(cpu('mock'), 1)} | ${ratio(cpu('mock'), cpu(floor))} |${baselineCli ? ` ${fmt(cpu('before'), 1)} | ${ratio(cpu('before'), cpu(floor))} | ${ratio(cpu('mock'), cpu('before'))} |` : ''} at most 1.5× | ${fmt(get(floor, 'requestsPerSecond'))} | ${fmt(get('mock', 'requestsPerSecond'))} |${baselineCli ? ` ${fmt(get('before', 'requestsPerSecond'))} |` : ''}`,
    );
  }
  return lines;
}

function markdown(results: Awaited<ReturnType<typeof collect>>): string {
  const lines: string[] = [];
  const { machine, throughput: t } = results;
  lines.push(
    `Measured ${machine.date} on ${machine.cpus}× ${machine.cpuModel}, Node ${machine.node}, with ${machine.generator} (1 thread, 10 connections, loopback); ${machine.rounds} alternating round(s) of ${machine.seconds} s per route, medians. Reproduce: \`npm run bench\` (\`-- --quick\` for a shorter run, \`-- --baseline DIR\` to compare with another build).`,
    '',
    '| Route | mock req/s | p50 / p99 ms | × raw | × Express | × Prism |',
    '|---|---|---|---|---|---|',
  );
  for (const row of t.table) {
    const server = row.servers as Record<string, Row>;
    const mock = server.mock as Row;
    const versus = (name: string) => ratio(mock.requestsPerSecond, server[name]?.requestsPerSecond ?? Number.NaN);
    lines.push(
      `| \`${row.route}\` | ${fmt(mock.requestsPerSecond)} | ${fmt(mock.p50Ms, 2)} / ${fmt(mock.p99Ms, 2)} | ${versus('raw')} | ${versus('express')} | ${versus('prism')} |`,
    );
  }
  lines.push(
    '',
    'The CPU each server used per request (µs, user + system time over the run, median): what throughput, which swings between runs, rests on.',
    '',
    `| Route | mock | raw | × raw | Express | Prism |${baselineCli ? ' before | after / before |' : ''}`,
    `|---|---|---|---|---|---|${baselineCli ? '---|---|' : ''}`,
  );
  for (const row of t.table) {
    const server = row.servers as Record<string, Row>;
    const cpu = (name: string) => server[name]?.cpuMicros ?? Number.NaN;
    lines.push(
      `| \`${row.route}\` | ${fmt(cpu('mock'), 1)} | ${fmt(cpu('raw'), 1)} | ${ratio(cpu('mock'), cpu('raw'))} | ${fmt(cpu('express'), 1)} | ${fmt(cpu('prism'), 1)} |${baselineCli ? ` ${fmt(cpu('before'), 1)} | ${ratio(cpu('mock'), cpu('before'))} |` : ''}`,
    );
  }
  lines.push('', '| Route | raw req/s | Express req/s | Prism req/s |', '|---|---|---|---|');
  for (const row of t.table) {
    const server = row.servers as Record<string, Row>;
    lines.push(
      `| \`${row.route}\` | ${fmt(server.raw?.requestsPerSecond ?? Number.NaN)} | ${fmt(server.express?.requestsPerSecond ?? Number.NaN)} | ${fmt(server.prism?.requestsPerSecond ?? Number.NaN)} |`,
    );
  }
  if (baselineCli) {
    lines.push(
      '',
      '| Route | before req/s | after req/s | after / before | before × raw | after × raw |',
      '|---|---|---|---|---|---|',
    );
    for (const row of t.table) {
      const server = row.servers as Record<string, Row>;
      const [before, after, raw] = [server.before, server.mock, server.raw].map(
        (r) => r?.requestsPerSecond ?? Number.NaN,
      ) as [number, number, number];
      lines.push(
        `| \`${row.route}\` | ${fmt(before)} | ${fmt(after)} | ${ratio(after, before)} | ${ratio(before, raw)} | ${ratio(after, raw)} |`,
      );
    }
  }
  const { sessions, proxy } = results;
  lines.push('', ...proxyTable(proxy));
  lines.push(
    '',
    `Sessions: a list in a named session (\`Petstore-Session\`) costs ${ratio(sessions.sessionMicros, sessions.defaultMicros)} the same list in the default session in-process (${fmt(sessions.sessionMicros, 1)} against ${fmt(sessions.defaultMicros, 1)} µs), and serves ${ratio(sessions.http.sessionRequestsPerSecond, sessions.http.defaultRequestsPerSecond)} its throughput over HTTP (${fmt(sessions.http.sessionRequestsPerSecond)} against ${fmt(sessions.http.defaultRequestsPerSecond)} req/s). ${sessions.idle.sessions} idle sessions add ${fmt(sessions.idle.heapMiB, 2)} MiB of heap (${fmt(sessions.idle.rssMiB, 1)} MiB RSS).`,
  );
  lines.push(
    '',
    'In-process, µs per request (median; sequential, one at a time):',
    '',
    '| Route | core `handle` | `mock.fetch` | MSW `setupServer` |',
    '|---|---|---|---|',
    ...results.inProcess.map(
      (row) =>
        `| \`${row.route}\` | ${fmt(row.handleMicros, 1)} | ${fmt(row.fetchMicros, 1)} | ${fmt(row.mswMicros, 1)} |`,
    ),
    '',
    ...coldStartTable(results.coldStart),
  );
  lines.push(
    '',
    '| Server | start-up to first 200 | RSS after load |',
    '|---|---|---|',
    ...allServers.map(
      ({ spec }) => `| ${spec.name} | ${fmt(t.startupMs[spec.name]!)} ms | ${fmt(t.rssMiB[spec.name]!)} MiB |`,
    ),
    '',
    `Logging at the default level (\`info\`, one line per request, asynchronous) serves ${fmt(results.logging.infoRequestsPerSecond)} req/s against ${fmt(results.logging.warnRequestsPerSecond)} at \`warn\`: ${ratio(results.logging.infoRequestsPerSecond, results.logging.warnRequestsPerSecond)}.`,
    '',
    '| Pets | seed (in-process) | rare status (1 in 1,000), `limit=100`: indexed | filter-then-slice | a session’s first write: time / heap kept | HTTP start-up (× the default scenario’s) | HTTP `status=sold&limit=100` req/s (15% sold) | RSS idle / loaded |',
    '|---|---|---|---|---|---|---|---|',
  );
  results.storeScale.forEach((row, index) => {
    const http = results.httpScale[index];
    lines.push(
      `| ${row.pets.toLocaleString('en')} | ${fmt(row.seedMs)} ms | ${fmt(row.indexedMicros, 2)} µs (page of ${row.pageSize}) | ${fmt(row.naiveMicros, 1)} µs | ${fmt(row.firstWrite.ms, 3)} ms / ${fmt(row.firstWrite.keptMiB, 3)} MiB | ${http ? `${fmt(http.startupMs)} ms (${ratio(http.startupMs, t.startupMs['mock'] ?? Number.NaN)})` : 'n/a'} | ${http ? fmt(http.requestsPerSecond) : 'n/a'} | ${http ? `${fmt(http.idleRssMiB)} / ${fmt(http.loadedRssMiB)} MiB` : 'n/a'} |`,
    );
  });
  const first = results.storeScale[0]!;
  const last = results.storeScale[results.storeScale.length - 1]!;
  const firstHttp = results.httpScale[0];
  const lastHttp = results.httpScale[results.httpScale.length - 1];
  lines.push(
    '',
    `Over HTTP, a filtered page of 100 at ${last.pets.toLocaleString('en')} pets costs ${firstHttp && lastHttp ? ratio(firstHttp.requestsPerSecond, lastHttp.requestsPerSecond) : 'n/a'} its cost at ${first.pets.toLocaleString('en')} (inverse of req/s); in-process, the indexed page for the rare status costs ${ratio(last.indexedMicros, first.indexedMicros)} (a page of ${last.pageSize} against ${first.pageSize}), filter-then-slice ${ratio(last.naiveMicros, first.naiveMicros)}. The contract suite against the local mock takes ${fmt(results.contract.medianMs)} ms (median of ${results.contract.runs}).`,
  );
  if (results.redis) lines.push('', ...redisTable(results.redis));
  return `${lines.join('\n')}\n`;
}

/** The proxy's table: each path's throughput, latency and own CPU, against the mock direct and the bare proxy. */
function proxyTable(proxy: Awaited<ReturnType<typeof proxyCost>>): string[] {
  return [
    'The validating proxy, in front of the same mock (`GET /pets?limit=20`):',
    '',
    '| Path | req/s | p50 / p99 ms | × direct | its own CPU µs per request | × bare proxy |',
    '|---|---|---|---|---|---|',
    ...(
      [
        'direct',
        'bare proxy',
        'proxy',
        ...(proxy['proxy before'] ? (['proxy before'] as const) : []),
        'prism proxy',
      ] as const
    ).map(
      (name) =>
        `| ${proxyNames[name]} | ${fmt(proxy[name]?.requestsPerSecond ?? 0)} | ${fmt(proxy[name]?.p50Ms ?? 0, 2)} / ${fmt(proxy[name]?.p99Ms ?? 0, 2)} | ${ratio(proxy[name]?.requestsPerSecond ?? 0, proxy.direct.requestsPerSecond)} | ${fmt(proxy[name]?.cpuMicros ?? Number.NaN, 1)} | ${name === 'direct' ? 'n/a' : ratio(proxy[name]?.cpuMicros ?? Number.NaN, proxy['bare proxy'].cpuMicros)} |`,
    ),
  ];
}

/**
 * The cold start's rounds: `--rounds` is the throughput's rounds of 5 s, so the cold start's fresh processes
 * take five times as many (15 by default, 5 with `--quick`), and a vitest suite a third as many (3, 1).
 */
function coldStartOptions() {
  return {
    rounds: Math.max(5, rounds * 5),
    suiteRounds: Math.max(1, rounds),
    ...(flags.baseline === undefined ? {} : { baseline: resolve(flags.baseline) }),
  };
}

async function collect() {
  process.stdout.write(`Throughput: ${rounds} round(s) × ${seconds} s per route and server\n`);
  const t = await throughput();
  process.stdout.write('In-process entries\n');
  const inProcess = await measureInProcess(quick);
  process.stdout.write('Cold start: imports, the first mock, a vitest suite (from npm pack)\n');
  const coldStart = measureColdStart(coldStartOptions());
  process.stdout.write('Proxy\n');
  const proxy = await proxyCost();
  process.stdout.write('Sessions\n');
  const sessions = {
    ...(await measureSessionCost(quick)),
    idle: measureIdleSessions(100),
    http: await sessionsOverHttp(),
  };
  process.stdout.write('Logging cost\n');
  const logging = await loggingCost();
  process.stdout.write('Store scale (in-process)\n');
  const scale = storeScale();
  process.stdout.write('Store scale (HTTP)\n');
  const http = await httpScale();
  process.stdout.write('Contract suite\n');
  const contract = await contractRun();
  process.stdout.write('The Redis store\n');
  const redis = await redisStore();
  return {
    machine: {
      date: new Date().toISOString().slice(0, 10),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
      rounds,
      seconds,
      quick,
      generator,
    },
    throughput: t,
    inProcess,
    coldStart,
    sessions,
    proxy,
    logging,
    storeScale: scale,
    httpScale: http,
    contract,
    redis,
  };
}

if (flags.only === 'mock') {
  // `--only mock`: the mock against its floors (and the --baseline build) in the same alternating rounds; nothing
  // is written.
  const chosen = allServers.filter(({ spec }) => ['raw', 'floor', 'mock', 'before'].includes(spec.name));
  process.stdout.write(`Mock: ${rounds} alternating round(s) × ${seconds} s per route and server\n`);
  const t = await throughput(chosen);
  process.stdout.write(
    `\n${await format(floorTable(t.table).join('\n'), { parser: 'markdown', proseWrap: 'preserve' })}`,
  );
  process.exit(0);
}

/**
 * `--only scale`: start-up to the first answer and idle RSS of the mock with the default scenario and with
 * 1,000, 100,000 and 1,000,000 pets (and of the --baseline build), in alternating rounds: issue 35's goal is
 * at most 300 MiB and at most 4× the default's start-up at 1,000,000.
 */
async function startUpScale(): Promise<string[]> {
  const builds = [{ name: 'mock', cli: mockCli }, ...(baselineCli ? [{ name: 'before', cli: baselineCli }] : [])];
  const sizes = ['default', 1_000, 100_000, 1_000_000] as const;
  const samples = new Map<string, { startupMs: number[]; rssMiB: number[] }>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sizes : [...sizes].reverse();
    for (const size of order) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const args = size === 'default' ? [] : ['--pets', String(size), '--max-pets', String(Math.max(size, 100_000))];
        const server = await startServerProcess(mockSpec(args, build.name, build.cli));
        try {
          const id = `${build.name}|${size}`;
          const sample = samples.get(id) ?? { startupMs: [], rssMiB: [] };
          sample.startupMs.push(server.startupMs);
          sample.rssMiB.push(server.rssMiB());
          samples.set(id, sample);
        } finally {
          await server.stop();
        }
      }
    }
  }
  const lines = [
    `| Pets | ${builds.map(({ name }) => `${name} start-up | ${name} × default's | ${name} idle RSS`).join(' | ')} |`,
    `|---|${builds.map(() => '---|---|---').join('|')}|`,
  ];
  for (const size of sizes) {
    const cells = builds.map(({ name }) => {
      const sample = samples.get(`${name}|${size}`);
      const base = median(samples.get(`${name}|default`)?.startupMs ?? []);
      const startup = median(sample?.startupMs ?? []);
      return `${fmt(startup)} ms | ${ratio(startup, base)} | ${fmt(median(sample?.rssMiB ?? []))} MiB`;
    });
    lines.push(
      `| ${typeof size === 'number' ? size.toLocaleString('en') : 'default scenario'} | ${cells.join(' | ')} |`,
    );
  }
  return lines;
}

if (flags.only !== undefined) {
  // `--only proxy`, `--only redis`, `--only cold-start` or `--only scale`: one section alone, for more rounds than a whole run can spend on it;
  // nothing is written.
  let table: string;
  if (flags.only === 'proxy') {
    process.stdout.write(`Proxy: ${rounds} alternating round(s) × ${seconds} s per path\n`);
    table = proxyTable(await proxyCost()).join('\n');
  } else if (flags.only === 'redis') {
    process.stdout.write(`The Redis store: ${rounds} alternating round(s) × ${seconds} s per route and store\n`);
    const redis = await redisStore();
    table = redis ? redisTable(redis).join('\n') : '';
  } else if (flags.only === 'cold-start') {
    const options = coldStartOptions();
    process.stdout.write(
      `Cold start: ${options.rounds} alternating round(s) of fresh processes, ${options.suiteRounds} of each vitest suite\n`,
    );
    table = coldStartTable(measureColdStart(options)).join('\n');
  } else if (flags.only === 'scale') {
    process.stdout.write(`Start-up and idle RSS by scenario size: ${rounds} alternating round(s)\n`);
    table = (await startUpScale()).join('\n');
  } else {
    throw new Error(
      `--only: the sections that run alone are 'mock', 'proxy', 'redis', 'cold-start' and 'scale', got ${flags.only}`,
    );
  }
  process.stdout.write(`\n${await format(table, { parser: 'markdown', proseWrap: 'preserve' })}`);
  process.exit(0);
}

const results = await collect();
// Formatted as the project formats Markdown, so that the README stays prettier-clean after a run.
const table = await format(markdown(results), { parser: 'markdown', proseWrap: 'preserve' });
writeFileSync(join(packageRoot, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(packageRoot, 'bench', 'results.md'), table);
if (flags['no-docs'] !== true) {
  const docPath = join(packageRoot, 'docs', 'performance.md');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
  if (doc.includes(start) && doc.includes(end)) {
    writeFileSync(
      docPath,
      `${doc.slice(0, doc.indexOf(start) + start.length)}\n\n${table}\n${doc.slice(doc.indexOf(end))}`,
    );
  }
}
process.stdout.write(`\n${table}`);
