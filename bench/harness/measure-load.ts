import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /** How many requests were answered in the run. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const run = promisify(execFile);

/** Which load generator the machine has: wrk (C, one thread, light on the shared cores) or autocannon. */
export async function loadGenerator(): Promise<'wrk' | 'autocannon'> {
  try {
    await run('wrk', ['--version']).catch((error: { stdout?: string }) => {
      // wrk prints its version and exits 1.
      if (!error.stdout?.includes('wrk')) throw error;
    });
    return 'wrk';
  } catch {
    return 'autocannon';
  }
}

const units: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };

function parseDuration(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  return match ? Number(match[1]) * (units[match[2] as string] as number) : Number.NaN;
}

/** wrk with one thread and `connections` connections; a Lua script sets the method, headers and body. */
async function withWrk(
  origin: string,
  request: LoadRequest,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-wrk-'));
  const script = join(dir, 'request.lua');
  const lines = [`wrk.method = ${JSON.stringify(request.method)}`];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(request.body)}`);
  // Count answers that are not 2xx, which would make the throughput meaningless.
  lines.push(
    'local bad = 0',
    'response = function(status) if status >= 300 then bad = bad + 1 end end',
    'done = function() io.write(string.format("non2xx %d\\n", bad)) end',
  );
  writeFileSync(script, `${lines.join('\n')}\n`);
  try {
    const { stdout } = await run(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `${origin}${request.path}`],
      { timeout: (seconds + 30) * 1000 },
    );
    const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    return {
      requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]),
      requests: Number(/(\d+) requests in/.exec(stdout)?.[1]),
      p50Ms: parseDuration(/\s50%\s+([\d.]+\w+)/.exec(stdout)?.[1]),
      p99Ms: parseDuration(/\s99%\s+([\d.]+\w+)/.exec(stdout)?.[1]),
      non2xx: Number(/non2xx (\d+)/.exec(stdout)?.[1] ?? 0),
      errors: errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withAutocannon(
  origin: string,
  request: LoadRequest,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${origin}${request.path}`,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** One run of `seconds` with `connections` keep-alive connections, loopback only. */
export function measureLoad(
  generator: 'wrk' | 'autocannon',
  origin: string,
  request: LoadRequest,
  seconds: number,
  connections = 10,
): Promise<LoadResult> {
  return generator === 'wrk'
    ? withWrk(origin, request, seconds, connections)
    : withAutocannon(origin, request, seconds, connections);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
