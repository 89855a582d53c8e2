/**
 * The Redis engine's own numbers, on a redis-server this script starts:
 * round trips per operation (the engine counts its calls), and the
 * per-request script's throughput and latency at 1 and 32 calls in flight,
 * beside PING through the same client (the floor of one round trip), with
 * the engine's (client) CPU and the server's CPU per call. Prints a table;
 * asserts nothing.
 *
 *   npx tsx bench/redis-engine.ts [calls per run, default 20000]
 */
import { readFileSync } from 'node:fs';
import type { StoreAction } from '../src/redis/engine-types.js';
import type { RedisEngine } from '../src/redis/redis-engine.js';
import { openEngine, scenarioOf } from '../test/support/redis-engine.js';
import { startRedisServer } from '../test/support/redis-server.js';

const calls = Number(process.argv[2] ?? 20_000);

function serverCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function clientCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function timed(
  label: string,
  inFlight: number,
  pid: number | undefined,
  call: (index: number) => Promise<unknown>,
): Promise<void> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = clientCpuMs();
  const server0 = serverCpuMs(pid);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        const index = next++;
        const began = performance.now();
        await call(index);
        latencies.push(performance.now() - began);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const client = ((clientCpuMs() - cpu0) * 1000) / calls;
  const server = ((serverCpuMs(pid) - server0) * 1000) / calls;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(3);
  console.log(
    `${label.padEnd(34)} ${String(inFlight).padStart(3)}  ${Math.round(calls / seconds)
      .toString()
      .padStart(
        7,
      )}/s  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  client ${client.toFixed(1)} µs  server ${server.toFixed(1)} µs`,
  );
}

async function roundTrips(engine: RedisEngine, label: string, run: () => Promise<unknown>): Promise<void> {
  const before = engine.roundTrips;
  await run();
  console.log(`  ${label.padEnd(44)} ${engine.roundTrips - before}`);
}

const server = await startRedisServer();
try {
  const pets = Array.from({ length: 50 }, (_, index) => ({
    id: index + 1,
    name: `pet ${index + 1}`,
    status: index % 3 === 0 ? 'sold' : 'available',
  }));
  const engine = await openEngine(server.url, { startScenario: scenarioOf('fifty', { animals: pets }) });
  const request = (action: StoreAction | undefined, session = 'default') =>
    engine.request({ session, create: true, operationId: 'op', now: Date.now(), action });
  const exchange = {
    id: 'x',
    startedAt: Date.now(),
    method: 'GET',
    url: '/v1/animals/1',
    headers: { authorization: 'Bearer k' },
    body: undefined,
    status: 200,
    responseBody: new TextEncoder().encode('{"id":1}'),
    durationMs: 0.2,
    admin: false,
  };
  await request(undefined);

  console.log(`redis-server ${server.port}, ${calls} calls per run\n\nround trips per call`);
  await roundTrips(engine, 'request: get by id', () => request({ kind: 'get', collection: 'animals', id: 1 }));
  await roundTrips(engine, 'request: list, filter, limit 20', () =>
    request({ kind: 'list', collection: 'animals', limit: 20, filters: { status: 'sold' } }),
  );
  await roundTrips(engine, 'request: create', () =>
    request({ kind: 'create', collection: 'animals', fields: { name: 'n' } }),
  );
  await roundTrips(engine, 'request: update', () =>
    request({ kind: 'update', collection: 'animals', id: 1, patch: { name: 'm' } }),
  );
  await roundTrips(engine, 'request: delete', () => request({ kind: 'delete', collection: 'animals', id: 2 }));
  await roundTrips(engine, 'request + journal append, pipelined', () =>
    Promise.all([request({ kind: 'get', collection: 'animals', id: 1 }), engine.record('default', exchange)]),
  );
  await roundTrips(engine, 'admin: schedule fault / sessions / reset', async () => {
    await engine.scheduleFault('default', { status: 500 });
    await engine.sessions();
    await engine.reset('default');
  });

  console.log('\nthroughput                          in flight');
  const { createClient } = await import('@redis/client');
  const raw = createClient({ url: server.url });
  await raw.connect();
  for (const inFlight of [1, 32]) {
    await timed('PING (one round trip, the floor)', inFlight, server.pid, () => raw.ping());
    await timed('request: get by id', inFlight, server.pid, () =>
      request({ kind: 'get', collection: 'animals', id: 1 }),
    );
    await timed('request: list, limit 20', inFlight, server.pid, () =>
      request({ kind: 'list', collection: 'animals', limit: 20 }),
    );
    await timed('request: create', inFlight, server.pid, (index) =>
      request({ kind: 'create', collection: 'animals', fields: { name: `n${index}` } }, `w${index % 50}`),
    );
    await timed('request: get + journal append', inFlight, server.pid, () =>
      Promise.all([request({ kind: 'get', collection: 'animals', id: 1 }), engine.record('default', exchange)]),
    );
  }
  raw.destroy();
  await engine.close();
} finally {
  await server.close();
}
