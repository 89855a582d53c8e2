import { Agent, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { startRedisServer, type RedisServer } from '../../test/support/redis-server.js';
import { measureLoad, median, type LoadRequest, type LoadResult } from './measure-load.js';
import { startServerProcess, type ServerProcess, type ServerSpec } from './server-process.js';

/**
 * The Redis store (issue 34), beside the memory store in the same run: the
 * mock with its state in memory, one replica on a Redis server, and two
 * replicas on the same server, each loaded by wrk (10 connections per
 * replica) for throughput and CPU, then by a paced client at a fixed rate
 * for latency. Prints nothing itself; `redisTable` formats what it returns.
 */
export interface RedisBenchOptions {
  rounds: number;
  seconds: number;
  generator: 'wrk' | 'autocannon';
  /** The mock's spec with these arguments added (run-bench.ts's `mockSpec`). */
  mockSpec: (extraArgs: string[], name: string) => ServerSpec;
  /** The requests per second of the paced runs. Default 1,000. */
  rate?: number;
  /** Progress lines. */
  log: (line: string) => void;
}

export interface RedisRoute {
  name: string;
  request: LoadRequest;
  /** Empties the default session first (creates would otherwise grow it run after run). */
  resetFirst?: boolean;
}

/** One configuration's medians for one route. */
export interface RedisRow {
  /** Requests per second, every replica together (wrk, 10 connections per replica). */
  requestsPerSecond: number;
  /** The mock's CPU per request, every replica's together (user + system, over the run). */
  mockCpuMicros: number;
  /** The Redis server's CPU per request, over the same run; NaN for the memory store. */
  redisCpuMicros: number;
  /** Round trips to Redis per request (FCALLs the server answered), the journal's batched appends included. */
  roundTripsPerRequest: number;
  /** Latency at the paced rate, from each request's scheduled start (no coordinated omission). */
  pacedP50Ms: number;
  pacedP99Ms: number;
  /** Answers per second the paced client got, to set beside the rate it asked for. */
  pacedRate: number;
  /** Paced requests answered with anything but 2xx, or not at all. */
  pacedFailures: number;
}

export type RedisConfig = 'memory' | 'redis ×1' | 'redis ×2';
export const redisConfigs: readonly RedisConfig[] = ['memory', 'redis ×1', 'redis ×2'];

export interface RedisBenchResults {
  rate: number;
  rounds: number;
  seconds: number;
  routes: Array<{ route: string; configs: Record<RedisConfig, RedisRow> }>;
}

/** utime + stime of a process, in ms (fields 14 and 15 of /proc/PID/stat). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The calls the server has answered with a Lua function (`FCALL`, `INFO commandstats`) since it started: the
 * engine's round trips, a request's own and the journal's batched appends (the commands a function runs inside
 * are counted apart, under their own names, so the total of every command is no count of round trips).
 */
async function functionCalls(info: () => Promise<string>): Promise<number> {
  return Number(/^cmdstat_fcall:calls=(\d+)/m.exec(await info())?.[1] ?? 0);
}

interface Paced {
  p50Ms: number;
  p99Ms: number;
  failures: number;
  /** Answers per second over the run, from the first scheduled start to the last answer. */
  achievedRate: number;
}

/**
 * An open-loop client: `rate` requests a second for `seconds`, sent at
 * their scheduled times whatever the answers before them (to the origins in
 * turn), on keep-alive connections; each latency runs from the scheduled
 * start, so a stall counts for every request it held back.
 */
async function pacedLoad(
  origins: readonly string[],
  request: LoadRequest,
  rate: number,
  seconds: number,
): Promise<Paced> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let failures = 0;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  const one = (index: number, due: number) =>
    new Promise<void>((resolve) => {
      const origin = new URL(origins[index % origins.length] as string);
      const outgoing = httpRequest(
        { agent, host: origin.hostname, port: origin.port, method: request.method, path: request.path, headers },
        (incoming) => {
          incoming.resume();
          incoming.on('end', () => {
            if ((incoming.statusCode ?? 0) >= 300) failures++;
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      outgoing.on('error', () => {
        failures++;
        resolve();
      });
      outgoing.end(body);
    });
  const started = performance.now() + 5;
  const pending: Array<Promise<void>> = [];
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && started + (next * 1000) / rate <= now) {
      pending.push(one(next, started + (next * 1000) / rate));
      next++;
    }
    if (next < total) {
      const wait = started + (next * 1000) / rate - performance.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    }
  }
  await Promise.all(pending);
  const elapsedMs = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    failures,
    achievedRate: (latencies.length * 1000) / elapsedMs,
  } satisfies Paced;
}

async function resetDefault(servers: readonly ServerProcess[], headers: Record<string, string>): Promise<void> {
  // One replica is enough for the shared store; each memory mock has its own.
  for (const server of servers) {
    const response = await fetch(`${server.origin}/__admin/reset`, { method: 'POST', headers });
    await response.arrayBuffer();
  }
}

export async function measureRedis(options: RedisBenchOptions, routes: readonly RedisRoute[]) {
  const rate = options.rate ?? 1000;
  const redis: RedisServer = await startRedisServer();
  const client = createClient({ url: redis.url });
  await client.connect();
  const info = () => client.info('commandstats');
  const samples = new Map<string, RedisRow[]>();
  const headers = routes[0]?.request.headers ?? {};
  try {
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? redisConfigs : [...redisConfigs].reverse();
      for (const config of order) {
        const replicas = config === 'redis ×2' ? 2 : 1;
        const args = config === 'memory' ? [] : ['--store', redis.url, '--store-prefix', `bench-${round}`];
        const servers = await Promise.all(
          Array.from({ length: replicas }, (_, index) =>
            startServerProcess(options.mockSpec(args, `${config}#${index}`)),
          ),
        );
        try {
          for (const server of servers) await measureLoad(options.generator, server.origin, routes[0]!.request, 1);
          for (const route of routes) {
            if (route.resetFirst) await resetDefault(config === 'memory' ? servers : servers.slice(0, 1), headers);
            const mock0 = servers.reduce((sum, server) => sum + server.cpuMs(), 0);
            const redis0 = cpuMsOf(redis.pid);
            const commands0 = await functionCalls(info);
            const loads: LoadResult[] = await Promise.all(
              servers.map((server) => measureLoad(options.generator, server.origin, route.request, options.seconds)),
            );
            const commands = (await functionCalls(info)) - commands0;
            const requests = loads.reduce((sum, load) => sum + load.requests, 0);
            const mockMs = servers.reduce((sum, server) => sum + server.cpuMs(), 0) - mock0;
            const redisMs = cpuMsOf(redis.pid) - redis0;
            if (route.resetFirst) await resetDefault(config === 'memory' ? servers : servers.slice(0, 1), headers);
            const paced = await pacedLoad(
              servers.map((server) => server.origin),
              route.request,
              rate,
              options.seconds,
            );
            const row: RedisRow = {
              requestsPerSecond: loads.reduce((sum, load) => sum + load.requestsPerSecond, 0),
              mockCpuMicros: (mockMs * 1000) / requests,
              redisCpuMicros: config === 'memory' ? Number.NaN : (redisMs * 1000) / requests,
              roundTripsPerRequest: config === 'memory' ? Number.NaN : commands / requests,
              pacedP50Ms: paced.p50Ms,
              pacedP99Ms: paced.p99Ms,
              pacedRate: paced.achievedRate,
              pacedFailures: paced.failures + loads.reduce((sum, load) => sum + load.non2xx + load.errors, 0),
            };
            const id = `${config}|${route.name}`;
            samples.set(id, [...(samples.get(id) ?? []), row]);
            options.log(
              `  round ${round + 1} ${config.padEnd(9)} ${route.name.padEnd(22)} ${row.requestsPerSecond.toFixed(0).padStart(6)} req/s  mock ${row.mockCpuMicros.toFixed(1).padStart(6)} µs/req  redis ${row.redisCpuMicros.toFixed(1).padStart(5)} µs/req  ${row.roundTripsPerRequest.toFixed(2)} rt/req  at ${rate}/s (got ${row.pacedRate.toFixed(0)}/s) p50 ${row.pacedP50Ms.toFixed(2)} p99 ${row.pacedP99Ms.toFixed(2)} ms${row.pacedFailures ? `  (${row.pacedFailures} failed!)` : ''}`,
            );
          }
        } finally {
          await Promise.all(servers.map((server) => server.stop()));
        }
      }
    }
  } finally {
    await client.quit().catch(() => undefined);
    await redis.close();
  }
  const results: RedisBenchResults = {
    rate,
    rounds: options.rounds,
    seconds: options.seconds,
    routes: routes.map((route) => {
      const configs = Object.fromEntries(
        redisConfigs.map((config) => {
          const rows = samples.get(`${config}|${route.name}`) ?? [];
          const pick = (field: keyof RedisRow) => median(rows.map((row) => row[field]));
          const row: RedisRow = {
            requestsPerSecond: pick('requestsPerSecond'),
            mockCpuMicros: pick('mockCpuMicros'),
            redisCpuMicros: pick('redisCpuMicros'),
            roundTripsPerRequest: pick('roundTripsPerRequest'),
            pacedP50Ms: pick('pacedP50Ms'),
            pacedP99Ms: pick('pacedP99Ms'),
            pacedRate: pick('pacedRate'),
            pacedFailures: rows.reduce((sum, each) => sum + each.pacedFailures, 0),
          };
          return [config, row];
        }),
      ) as Record<RedisConfig, RedisRow>;
      return { route: route.name, configs };
    }),
  };
  return results;
}

const fmt = (value: number, digits = 0): string => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

/** The results as Markdown: one table of throughput and CPU, one of latency at the paced rate. */
export function redisTable(results: RedisBenchResults): string[] {
  const lines = [
    `The Redis store (issue 34): the mock with its state in memory, one replica on a local redis-server (no persistence), and two replicas on it; wrk with 10 connections per replica, ${results.rounds} alternating round(s) of ${results.seconds} s, medians. CPU is user + system time over the run, per request, every replica's together; round trips per request (FCALLs the server answered) include the journal's appends, which a replica batches per turn of its event loop and does not wait for.`,
    '',
    '| Route | Store | req/s | mock CPU µs/req | × memory | redis-server CPU µs/req | round trips/req |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { route, configs } of results.routes) {
    for (const config of redisConfigs) {
      const row = configs[config];
      lines.push(
        `| \`${route}\` | ${config} | ${fmt(row.requestsPerSecond)} | ${fmt(row.mockCpuMicros, 1)} | ${ratio(row.mockCpuMicros, configs.memory.mockCpuMicros)} | ${fmt(row.redisCpuMicros, 1)} | ${fmt(row.roundTripsPerRequest, 2)} |`,
      );
    }
  }
  lines.push(
    '',
    `Latency at ${results.rate.toLocaleString('en')} requests/s (a paced, open-loop client, round-robin over the replicas; from each request's scheduled start), medians of the rounds:`,
    '',
    '| Route | Store | achieved req/s | p50 ms | p99 ms | failed |',
    '|---|---|---|---|---|---|',
  );
  for (const { route, configs } of results.routes) {
    for (const config of redisConfigs) {
      const row = configs[config];
      lines.push(
        `| \`${route}\` | ${config} | ${fmt(row.pacedRate)} | ${fmt(row.pacedP50Ms, 2)} | ${fmt(row.pacedP99Ms, 2)} | ${row.pacedFailures} |`,
      );
    }
  }
  return lines;
}
