import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server under test, started as its own process on 127.0.0.1. */
export interface ServerProcess {
  name: string;
  /** e.g. `http://127.0.0.1:40123` */
  origin: string;
  /** Milliseconds from spawn to the first 200 on the probe path. */
  startupMs: number;
  child: ChildProcess;
  rssMiB(): number;
  /** The CPU time the process has used so far (user + system, from /proc/PID/stat), in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export interface ServerSpec {
  name: string;
  command: string;
  /** Arguments; `{port}` is replaced by a free port. */
  args: string[];
  /** Path (with query) that must answer 200 with the probe headers once the server is ready. */
  probe: string;
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function rssOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kib / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`: 100 on Linux). */
const ticksPerSecond = 100;

/** utime + stime of a process (fields 14 and 15 of /proc/PID/stat, after the command name), in ms. */
function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** Spawns the server and polls the probe every 2 ms until it answers 200 (or 30 s pass). */
export async function startServerProcess(spec: ServerSpec): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(
    spec.command,
    spec.args.map((arg) => arg.replace('{port}', String(port))),
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...spec.env } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = started + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited early: ${stderr.slice(0, 500)}`);
    try {
      const response = await fetch(`${origin}${spec.probe}`, { headers: spec.headers });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${spec.name} did not answer 200 within 30 s: ${stderr}`);
    await sleep(2);
  }
  const startupMs = performance.now() - started;
  return {
    name: spec.name,
    origin,
    startupMs,
    child,
    rssMiB: () => rssOf(child.pid),
    cpuMs: () => cpuOf(child.pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
