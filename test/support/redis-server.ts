import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's `redis-server` (7.0); `.ci/run` installs it when it is missing. */
export const redisServerPath = process.env.PETSTORE_REDIS_SERVER ?? '/usr/bin/redis-server';

/**
 * Why the tests that need a Redis server cannot run here, or undefined when
 * they can. Outside CI a missing server skips them with this reason; in CI
 * (`CI` set) it is a failure, so that a runner without Redis cannot pass by
 * running nothing: see `requireRedisServer`.
 */
export const noRedisServer: string | undefined = existsSync(redisServerPath)
  ? undefined
  : `no redis-server at ${redisServerPath} (apt-get install -y redis-server, or set PETSTORE_REDIS_SERVER)`;

/** Throws in CI when the server is missing (the suites call it in a test of their own); elsewhere, nothing. */
export function requireRedisServer(): void {
  if (noRedisServer !== undefined && process.env.CI) {
    throw new Error(`CI must run the Redis tests: ${noRedisServer}`);
  }
}

export interface RedisServerOptions {
  /**
   * Keep data across a restart: an append-only file and a snapshot in a
   * folder of its own (removed by `stop()`). Default: nothing saved
   * (`--save "" --appendonly no`).
   */
  persistent?: boolean;
  /** A password the server requires (`--requirepass`). */
  password?: string;
  /** More arguments for the server (`--rename-command CONFIG ""`, as managed services do). */
  args?: readonly string[];
}

export interface RedisServer {
  readonly port: number;
  /** The running server's process id (for its CPU time), or undefined while stopped. */
  readonly pid: number | undefined;
  /** `redis://127.0.0.1:PORT` (with the password, when one is required). */
  readonly url: `redis://${string}`;
  /** Whether the server process is running now. */
  readonly running: boolean;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (and, persistent, on the same files). */
  start(): Promise<void>;
  /** Sends the running server a signal: `SIGSTOP` hangs it (no answer, no closed connection), `SIGCONT` wakes it. */
  signal(signal: NodeJS.Signals): void;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

/** A port no one listens on now: one the kernel hands out, let go at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `redis-server` on `port` and resolves once its log says it accepts
 * connections (an event, not a sleep); rejects with its log when it exits first.
 */
function launch(port: number, folder: string, options: RedisServerOptions): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    folder,
    '--logfile',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
  ];
  if (options.persistent) args.push('--save', '1 1', '--appendonly', 'yes', '--appendfsync', 'always');
  else args.push('--save', '', '--appendonly', 'no');
  if (options.password !== undefined) args.push('--requirepass', options.password);
  args.push(...(options.args ?? []));
  const child = spawn(redisServerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer): void => {
      log += chunk.toString('utf8');
      if (/Ready to accept connections/.test(log)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null): void => {
      reject(new Error(`redis-server exited (${String(code)}) before it was ready:\n${log.slice(-2000)}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts Debian's `redis-server` on an ephemeral port of 127.0.0.1, nothing
 * saved unless `persistent`, and waits until it is ready. Stop it with
 * `close()` (tests do it in `afterAll`).
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // The port is free when asked for, but another process may take it before the server binds it: try again.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, folder, options);
      break;
    } catch (error) {
      if (attempt >= 5 || !/Address already in use/i.test(String(error))) {
        rmSync(folder, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running) return;
    const done = exited(running);
    // A hung server (SIGSTOP) must wake to hear SIGTERM.
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await done;
  };
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}` as const,
    get running() {
      return child !== undefined;
    },
    get pid() {
      return child?.pid;
    },
    stop,
    async start() {
      if (child) return;
      child = await launch(port, folder, options);
    },
    signal(signal) {
      child?.kill(signal);
    },
    async close() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
