import type * as RedisClientModule from '@redis/client';
import Denque from 'denque';
import type { RedisClientType } from '@redis/client';
import { HttpError } from '../core/errors/http-error.js';
import type { EngineLibrary } from './engine-library.js';
import { redactedUrl, scrub, secretsOf } from './redacted-url.js';
import { readPersistence, type ServerPersistence } from './server-persistence.js';

/** How long a call to the store may take before it is refused, by default: 2 s. */
export const defaultDeadlineMs = 2_000;

/** Whether the store answers, as `/__admin/health` reports it. */
export interface StoreHealth {
  reachable: boolean;
  /** Since when it has been reachable, or not (ISO 8601). */
  since: string;
  /** Why it is not reachable (the connection's error, or a call that got no answer in time). */
  reason?: string;
  /** The store's URL without its password. */
  store: string;
  /** What the server keeps across its own restart, once read (at every connection). */
  persistence?: ServerPersistence;
}

/** What the connection tells its owner (the CLI logs it). */
export type ConnectionEvent =
  | { kind: 'unreachable'; store: string; reason: string }
  | { kind: 'reachable'; store: string; persistence: ServerPersistence | undefined }
  | { kind: 'library_loaded'; store: string }
  | { kind: 'connection_replaced'; store: string; reason: string };

export interface ConnectionOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** How long a call may take before it rejects with `503 store_unavailable`. Default 2000 ms. */
  deadlineMs?: number;
  onEvent?: (event: ConnectionEvent) => void;
}

type RedisModule = typeof RedisClientModule;
type Client = RedisClientType;

/** A call sent and not answered yet: when it is due, and how to refuse it then. */
interface PendingCall {
  /** `performance.now()` at which it is refused. */
  due: number;
  /** Answered, or refused: whichever came first decides. */
  done: boolean;
  reject: (error: Error) => void;
  client: Client;
}

/** Server replies that say the server cannot serve now, rather than that a call was wrong. */
const unavailableReplies =
  /^(LOADING|BUSY|MASTERDOWN|READONLY|OOM|MISCONF|NOAUTH|WRONGPASS|NOPERM|CLUSTERDOWN|TRYAGAIN)\b/;

/**
 * Loads the Redis client, an optional peer dependency that only the
 * `redis://` path needs: the kit installs no Redis client for those who
 * mock in a browser or a test runner.
 */
async function loadClientModule(): Promise<RedisModule> {
  try {
    return await import('@redis/client');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(
        'a redis:// store needs the Redis client package, which petstore-kit does not install by itself: npm install @redis/client@^6',
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * One connection to the Redis server, for one engine: every call has a
 * deadline after which it rejects with `503 store_unavailable`; a server
 * that is down, restarting or hung is reported by `health()` (reachable or
 * not, why, since when) and reconnected to without help; the engine's library
 * is loaded again when the server lost it. It starts while the
 * server is down, and keeps trying. Commands are not queued while the
 * connection is down: they are refused at once, so that nothing written
 * after a 503 can land later. Passwords never reach a message: the URL is
 * printed without one, and errors are scrubbed of it.
 */
export class RedisConnection {
  readonly deadlineMs: number;
  /** The store's URL without its password. */
  readonly store: string;
  /** Calls sent to the server (one round trip each, pipelined or not): what a benchmark counts. */
  roundTrips = 0;
  /** How often the server did not hold the engine's library and was sent it. */
  libraryLoads = 0;
  readonly #module: RedisModule;
  readonly #url: string;
  readonly #secrets: string[];
  readonly #onEvent: (event: ConnectionEvent) => void;
  #client: Client;
  #reachable = false;
  #since = Date.now();
  #reason: string | undefined = 'connecting';
  #persistence: ServerPersistence | undefined;
  #probing = false;
  #closed = false;
  #readyWaiters: Array<() => void> = [];
  /** Calls sent and not answered yet, oldest first: the deadline timer refuses the late ones. */
  readonly #pending = new Denque<PendingCall>();
  #watch: ReturnType<typeof setTimeout> | undefined;

  private constructor(module: RedisModule, options: ConnectionOptions) {
    this.#module = module;
    this.#url = options.url;
    this.#secrets = secretsOf(options.url);
    this.store = redactedUrl(options.url);
    this.deadlineMs = options.deadlineMs ?? defaultDeadlineMs;
    this.#onEvent = options.onEvent ?? (() => undefined);
    this.#client = this.#connect();
  }

  /**
   * Opens a connection to the server at `url`, and resolves at once: the
   * server may be down (calls are refused with 503 and `health()` says why
   * until it answers). Throws only for a URL that is not a Redis one, or
   * when the client package is not installed.
   */
  static async open(options: ConnectionOptions): Promise<RedisConnection> {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new Error(`${redactedUrl(options.url)}: a store URL is redis://[:password@]host[:port][/db] or rediss://…`);
    }
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
      throw new Error(
        `${redactedUrl(options.url)}: a store URL starts with redis:// or rediss:// (TLS), not ${parsed.protocol}//`,
      );
    }
    return new RedisConnection(await loadClientModule(), options);
  }

  #connect(): Client {
    const client = this.#module.createClient({
      url: this.#url,
      name: 'petstore-kit',
      // Refuse at once while disconnected: a queued write could land after its request was answered 503.
      disableOfflineQueue: true,
      // The connection keeps its own deadline, one timer for every call (see #sweep); the client's own would
      // make an AbortSignal and a timer per command.
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: this.deadlineMs,
        // Never give up: a replica waits for its server as long as it runs.
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 4), 1_000),
      },
    }) as unknown as Client;
    client.on('error', (error: unknown) => {
      if (client === this.#client) this.#down(this.#describe(error));
    });
    client.on('ready', () => {
      if (client === this.#client) this.#up();
    });
    client.connect().catch(() => {
      // Rejected only once the client is closed (by `close()` or a replacement): nothing to do.
    });
    return client;
  }

  /** Resolves once the server has answered since the connection was opened (tests and start-up wait on it). */
  whenReady(): Promise<void> {
    if (this.#reachable) return Promise.resolve();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  health(): StoreHealth {
    const health: StoreHealth = {
      reachable: this.#reachable,
      since: new Date(this.#since).toISOString(),
      store: this.store,
    };
    if (this.#reason !== undefined && !this.#reachable) health.reason = this.#reason;
    if (this.#persistence) health.persistence = this.#persistence;
    return health;
  }

  /** What the server keeps across its own restart (read at every connection), or undefined before the first. */
  get persistence(): ServerPersistence | undefined {
    return this.#persistence;
  }

  #up(): void {
    if (!this.#reachable) {
      this.#reachable = true;
      this.#since = Date.now();
      this.#reason = undefined;
    }
    void readPersistence((args) => this.send(args)).then(
      (persistence) => {
        this.#persistence = persistence;
        this.#onEvent({ kind: 'reachable', store: this.store, persistence });
      },
      () => undefined,
    );
    const waiters = this.#readyWaiters;
    this.#readyWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #down(reason: string): void {
    if (this.#closed) return;
    if (this.#reachable || this.#reason === 'connecting') {
      this.#reachable = false;
      this.#since = Date.now();
      this.#reason = reason;
      this.#onEvent({ kind: 'unreachable', store: this.store, reason });
    } else {
      this.#reason = reason;
    }
  }

  #describe(error: unknown): string {
    const message = error instanceof Error ? error.message || error.name : String(error);
    return scrub(message, this.#secrets);
  }

  #unavailable(reason: string): HttpError {
    return new HttpError(
      'store_unavailable',
      `the Redis store at ${this.store} cannot be reached since ${new Date(this.#since).toISOString()} (${reason}): requests that need it are refused until it answers again, and the mock reconnects by itself`,
    );
  }

  /**
   * Sends one command (a round trip, pipelined with those sent in the same
   * tick) and resolves with its reply, bulk strings as `Buffer`s when
   * `buffers`. Rejects with `503 store_unavailable` while the server cannot
   * be reached, when it says it cannot serve (loading, out of memory, read
   * only…), or when no answer came within the deadline.
   */
  send(args: ReadonlyArray<string | Buffer>, buffers = false): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#unavailable('the store was closed'));
    const client = this.#client;
    if (!client.isReady) {
      return Promise.reject(this.#unavailable(this.#reason ?? 'not connected'));
    }
    this.roundTrips++;
    return new Promise((resolve, reject) => {
      const call: PendingCall = { due: performance.now() + this.deadlineMs, done: false, reject, client };
      this.#pending.push(call);
      this.#watch ??= setTimeout(this.#sweep, this.deadlineMs);
      const options = buffers ? { typeMapping: { [this.#module.RESP_TYPES.BLOB_STRING]: Buffer } } : undefined;
      client.sendCommand(args as Array<string | Buffer>, options).then(
        (reply: unknown) => {
          if (this.#settle(call)) return;
          if (!this.#reachable && client === this.#client) this.#up();
          resolve(reply);
        },
        (error: unknown) => {
          if (!this.#settle(call)) reject(this.#translate(error));
        },
      );
    });
  }

  /** Marks a call answered; true when its deadline had already refused it. Answered calls leave the front at once. */
  #settle(call: PendingCall): boolean {
    if (call.done) return true;
    call.done = true;
    const pending = this.#pending;
    while (pending.length > 0 && (pending.peekFront() as PendingCall).done) pending.shift();
    return false;
  }

  /**
   * The one deadline timer of the connection (not one per call: replies come
   * in the order calls were sent, so the oldest call unanswered is the first
   * to be late): it refuses every call past its deadline, reports the server
   * slow, and waits again for the next call's deadline.
   */
  readonly #sweep = (): void => {
    this.#watch = undefined;
    const now = performance.now();
    const pending = this.#pending;
    while (pending.length > 0) {
      const call = pending.peekFront() as PendingCall;
      if (call.done) {
        pending.shift();
        continue;
      }
      if (call.due > now) {
        this.#watch = setTimeout(this.#sweep, call.due - now);
        return;
      }
      pending.shift();
      call.done = true;
      call.reject(
        new HttpError(
          'store_unavailable',
          `the Redis store at ${this.store} did not answer within ${this.deadlineMs} ms: the request was refused (a write it carried may still be applied by the server)`,
        ),
      );
      this.#slow(call.client);
    }
  };

  /** The error a caller sees: 503 for what the server's state explains, the server's words for the rest. */
  #translate(error: unknown): Error {
    const message = this.#describe(error);
    if (error instanceof this.#module.ErrorReply) {
      if (/function not found/i.test(message)) return error;
      if (unavailableReplies.test(message)) {
        return new HttpError('store_unavailable', `the Redis store at ${this.store} cannot serve now: ${message}`);
      }
      return new Error(`the Redis store at ${this.store} answered an error: ${message}`, { cause: error });
    }
    if (error instanceof HttpError) return error;
    this.#down(message);
    return this.#unavailable(message);
  }

  /**
   * A call got no answer in time: the server is hung, or the network drops
   * packets without closing. Said in health at once; a PING within the
   * deadline clears it, and without one the connection is replaced (a
   * connection stuck on unanswered calls would never recover by itself).
   */
  #slow(client: Client): void {
    if (client !== this.#client || this.#closed) return;
    this.#down(`no answer within ${this.deadlineMs} ms`);
    if (this.#probing) return;
    this.#probing = true;
    const probe = setTimeout(() => {
      this.#probing = false;
      if (client !== this.#client || this.#closed) return;
      this.#onEvent({
        kind: 'connection_replaced',
        store: this.store,
        reason: `no answer to PING within ${this.deadlineMs} ms`,
      });
      this.#client = this.#connect();
      client.destroy();
    }, this.deadlineMs);
    client.sendCommand(['PING']).then(
      () => {
        clearTimeout(probe);
        this.#probing = false;
        if (client === this.#client) this.#up();
      },
      () => undefined,
    );
  }

  /**
   * Calls the library's function with `FCALL`; when the server does not
   * hold the library (restarted without persistence, `FUNCTION FLUSH`, a
   * new server), loads it (`FUNCTION LOAD REPLACE`: the same code under the
   * same name, so replicas loading it at once agree) and calls again:
   * callers never see the missing function.
   */
  async call(
    library: EngineLibrary,
    keys: readonly string[],
    args: ReadonlyArray<string | Buffer>,
    buffers = false,
  ): Promise<unknown> {
    const command = ['FCALL', library.name, String(keys.length), ...keys, ...args];
    try {
      return await this.send(command, buffers);
    } catch (error) {
      if (!(error instanceof this.#module.ErrorReply) || !/function not found/i.test(error.message)) throw error;
      this.libraryLoads++;
      this.#onEvent({ kind: 'library_loaded', store: this.store });
      await this.send(['FUNCTION', 'LOAD', 'REPLACE', library.source]);
      return this.send(command, buffers);
    }
  }

  /** Closes the connection; calls made after it are refused. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#watch) clearTimeout(this.#watch);
    this.#watch = undefined;
    for (const resolve of this.#readyWaiters) resolve();
    this.#readyWaiters = [];
    this.#client.destroy();
  }
}
