import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
  type BigIntStats,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HttpError } from '../core/errors/http-error.js';
import { parseExactJson, stringifyJson } from '../core/json/exact-json.js';
import { silentLogger, type MockLogger } from '../core/support/mock-logger.js';
import type { MemoryStore } from '../core/store/memory-store.js';
import type { WriteGate } from '../core/store/resource-store.js';
import { checkStatePath, StatePathError } from './check-state-path.js';
import { lockStateFile, type StateLock } from './state-lock.js';

/** The marker every state file starts with; a JSON file without it is not ours and is never touched. */
export const stateFormat = 'petstore-kit-state';
export const stateFormatVersion = 1;

/**
 * What a state file holds: the scenario the store was loaded from, and each
 * collection's items at the time of the write, by the collection's name
 * (`pets` in the kit's document; checked by the mock's one item-list check
 * when they are restored, exactly like a fixture's).
 */
export interface SavedState {
  scenario: string;
  items: Record<string, unknown[]>;
}

/** The fields of a state file beside its collections. */
const stateFields = new Set(['format', 'version', 'savedAt', 'scenario']);

/** What a state file held: its scenario and how many items each collection had (`{ scenario, pets: 2 }`). */
export interface LoadedState {
  scenario: string;
  [collection: string]: string | number;
}

/** A state file the mock cannot use. Its message names the file and the problem; the file is left as it is. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

/**
 * How the bytes of a write reach the disk: a new temporary file, written
 * whole and fsynced. The default uses node:fs; tests pass one that fails as
 * a full disk or a read-only folder would (root passes every permission check).
 */
export interface StateFileWriter {
  write(path: string, text: string): Promise<void>;
  writeSync(path: string, text: string): void;
}

const nodeWriter: StateFileWriter = {
  async write(path, text) {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  writeSync(path, text) {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, text, null, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
};

export interface StateFileOptions {
  /** Time from the first unsaved change to the write that saves it, in ms. Default 100. */
  debounceMs?: number;
  /** Where write failures are reported. Default: silent. */
  logger?: MockLogger;
  /** Writes a temporary file whole. Default: node:fs. */
  writer?: StateFileWriter;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

const isEnoent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Opens never through a link where the platform can say so (not Windows). */
const noFollow = constants.O_NOFOLLOW ?? 0;

/** What tells one version of the file from another without reading it: which file, how long, when last written. */
interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

function identity(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs };
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Makes a rename durable: fsync of the directory that holds the entry. Not possible on every platform (Windows). */
function syncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Keeps the store in one JSON file across restarts.
 *
 * `read()` validates the file (format marker, version, every pet against the
 * document's `Pet` schema) and throws `StateFileError` for a corrupt, foreign
 * or invalid one, which is then never written. `watch(store)` saves the store
 * after each change: at most `debounceMs` after the first unsaved change, one
 * write at a time, each atomic (a temporary file in the same directory,
 * written and fsynced, renamed over the target, then the directory fsynced),
 * so the file always holds either the previous or the next complete state.
 * `close()` stops watching and waits for a final write of anything unsaved.
 */
export class StateFile {
  readonly path: string;
  readonly debounceMs: number;
  readonly #logger: MockLogger;
  readonly #writer: StateFileWriter;
  readonly #tempPrefix: string;
  #lock: StateLock | undefined;
  /** Set while writes fail: the error every change gets until a write succeeds (see `watch()`). */
  #failure: HttpError | undefined;
  /** Set for good once another process took the lock over: every change is refused, nothing more is written. */
  #lost: HttpError | undefined;
  /** The file as the mock last read or wrote it: a file found otherwise was changed by someone else. */
  #seen: FileIdentity | undefined;
  #retryQueued = false;
  #store: MemoryStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #savedVersion = -1;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #writing: Promise<void> = Promise.resolve();
  #lastError: Error | undefined;
  #writes = 0;
  #loaded: LoadedState | undefined;

  constructor(path: string, options: StateFileOptions = {}) {
    this.path = resolve(path);
    this.debounceMs = options.debounceMs ?? 100;
    this.#logger = options.logger ?? silentLogger;
    this.#writer = options.writer ?? nodeWriter;
    this.#tempPrefix = `.${basename(this.path)}.tmp-`;
  }

  /** What keeps changes from being saved now (the error creates get), or `undefined` when writes succeed. */
  get failure(): HttpError | undefined {
    return this.#lost ?? this.#failure;
  }

  /** What `read()` found: the saved scenario and how many items of each collection; `undefined` before, or when there was no file. */
  get loaded(): LoadedState | undefined {
    return this.#loaded;
  }

  /** How many writes have completed (tests and benchmarks read it). */
  get writes(): number {
    return this.#writes;
  }

  /**
   * The saved state, or `undefined` when the file does not exist. Numbers are
   * read exactly (ids beyond 2^53 included); the pets are checked when the
   * mock restores them.
   */
  read(): SavedState | undefined {
    this.#checkPath(false);
    let text: string;
    let fd: number | undefined;
    try {
      // Never through a link, even one planted since the check (O_NOFOLLOW fails on it: ELOOP), and never stuck
      // on a FIFO planted there (O_NONBLOCK; the check below refuses it).
      fd = openSync(this.path, constants.O_RDONLY | noFollow | (constants.O_NONBLOCK ?? 0));
      const stats = fstatSync(fd, { bigint: true });
      if (!stats.isFile()) throw new StateFileError(`${this.path}: is not a plain file; name a state file of your own`);
      text = readFileSync(fd, 'utf8');
      this.#seen = identity(stats);
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      if (isEnoent(error)) return undefined;
      throw new StateFileError(`${this.path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    let value: unknown;
    try {
      value = parseExactJson(text);
    } catch (error) {
      throw new StateFileError(`${this.path}: is not valid JSON (${(error as Error).message}); it is left untouched`);
    }
    const marker = (value as { format?: unknown } | null)?.format;
    if (typeof value !== 'object' || value === null || Array.isArray(value) || marker !== stateFormat) {
      throw new StateFileError(
        `${this.path}: is not a petstore-kit state file (no "format": "${stateFormat}"); it is left untouched. Name another --state-file`,
      );
    }
    const version = (value as { version?: unknown }).version;
    if (version !== stateFormatVersion) {
      throw new StateFileError(
        `${this.path}: has state format version ${JSON.stringify(version)}; this mock reads version ${stateFormatVersion}. It is left untouched`,
      );
    }
    const state = value as Record<string, unknown>;
    const items = Object.entries(state).filter(([key]) => !stateFields.has(key));
    if (typeof state.scenario !== 'string' || state.scenario === '' || items.length === 0) {
      throw new StateFileError(
        `${this.path}: must hold a "scenario" name and a list of each collection's items; it is left untouched`,
      );
    }
    // Which collections the document has is the mock's to check: a name it does not know stops start-up there.
    const notList = items.find(([, list]) => !Array.isArray(list));
    if (notList) {
      throw new StateFileError(
        `${this.path}: has a field '${notList[0]}' that is not a list of items; it is left untouched`,
      );
    }
    const lists = Object.fromEntries(items) as Record<string, unknown[]>;
    this.#loaded = {
      scenario: state.scenario,
      ...Object.fromEntries(items.map(([name, list]) => [name, (list as unknown[]).length])),
    };
    return { scenario: state.scenario, items: lists };
  }

  /**
   * Saves the store after every change from now on. Before anything else it
   * makes sure no change can be lost without an error:
   *
   * - it checks where the file is (see `checkStatePath`): no symbolic link,
   *   no folder another user can change, no file of another user or with a
   *   second name; missing folders are made, never along a link;
   * - it takes the file's lock (`FILE.lock`): a second mock on the same file
   *   is refused, naming the process that holds it;
   * - it checks that the file can be written: a new file is written at once,
   *   an existing one's folder must take a new file; otherwise start-up
   *   stops, rather than the first create being lost;
   * - while later writes fail (a full disk, a folder made read-only), every
   *   change of the store is refused with `503 store_unavailable` naming the
   *   file and the error, until a write succeeds again (retried at once on
   *   the next change, and every second);
   * - a file changed by another program since the mock last read or wrote it
   *   is never overwritten: it is kept beside, as `FILE.edited-DATE`, and a
   *   warning names both;
   * - should another process take the lock over (it judged this mock gone),
   *   every change is refused from then on with `503 store_unavailable`.
   *
   * Leftover temporary files of an earlier, killed run are removed.
   */
  watch(store: MemoryStore): void {
    if (this.#store) throw new Error('StateFile.watch: already watching a store');
    const exists = this.#checkPath(true);
    try {
      this.#lock = lockStateFile(this.path, this.path, { onLost: (problem) => this.#loseLock(problem) });
    } catch (error) {
      throw new StateFileError((error as Error).message);
    }
    try {
      this.#removeLeftovers();
      if (exists) {
        if (!this.#seen) this.#seen = identity(lstatSync(this.path, { bigint: true }));
        this.#probe();
        this.#savedVersion = store.revision;
      } else {
        try {
          this.#writeSync(store);
        } catch (error) {
          throw new StateFileError(`${this.path}: cannot be written (${errorCode(error)})`);
        }
      }
    } catch (error) {
      this.#lock.release();
      this.#lock = undefined;
      throw error;
    }
    this.#store = store;
    const gate: WriteGate = {
      check: () => {
        if (this.#lost) throw this.#lost;
        if (!this.#failure) return;
        this.#retryNow();
        throw this.#failure;
      },
      problem: () => this.#lost ?? this.#failure,
    };
    store.setWriteGate(gate);
    this.#unsubscribe = store.onChange(() => this.#schedule());
  }

  /** Where the file is, checked (see `checkStatePath`); whether it exists. */
  #checkPath(create: boolean): boolean {
    try {
      return checkStatePath(this.path, { create });
    } catch (error) {
      if (error instanceof StatePathError) throw new StateFileError(error.message);
      throw error;
    }
  }

  /** Another process took the lock: this mock writes nothing more, and refuses every change, saying why. */
  #loseLock(problem: string): void {
    if (this.#closed || this.#lost) return;
    this.#lost = new HttpError(
      'store_unavailable',
      `the state file ${this.path} is no longer this mock's: ${problem}; changes are refused, so that two mocks do not overwrite each other's pets. Restart this mock once the other one stops`,
    );
    this.#logger.error({ stateFile: this.path }, `${problem}: changes are refused from now on`);
  }

  /**
   * Checks that the folder of an existing file takes a new file, as every
   * write needs (a temporary file renamed over the file): a read-only folder
   * or file system stops start-up here.
   */
  #probe(): void {
    const temp = this.#tempPath();
    try {
      this.#writer.writeSync(temp, '');
    } catch (error) {
      rmSync(temp, { force: true });
      throw new StateFileError(
        `${this.path}: cannot be written: its folder ${dirname(this.path)} does not take a new file (${errorCode(error)}), so every change would be lost; make it writable, or name another --state-file`,
      );
    }
    rmSync(temp, { force: true });
  }

  /** Writes anything unsaved now and resolves once it is on disk. Rejects with the write's error. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#lastError = undefined;
    this.#enqueue();
    await this.#writing;
    if (this.#lastError) throw this.#lastError;
  }

  /** Stops watching, then flushes, then lets the file's lock go (also when the flush fails). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#store?.setWriteGate(undefined);
    try {
      await this.flush();
    } finally {
      this.#lock?.release();
      this.#lock = undefined;
    }
  }

  /** A write now, after the one in progress, unless one is queued already (a refused change asks for it). */
  #retryNow(): void {
    if (this.#retryQueued || this.#closed) return;
    this.#retryQueued = true;
    this.#writing.then(
      () => {
        this.#retryQueued = false;
        this.#enqueue();
      },
      () => undefined,
    );
  }

  #schedule(): void {
    if (this.#timer) return;
    // Not reset by later changes: under a steady stream of creates a write still happens every debounceMs.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#enqueue();
    }, this.debounceMs);
  }

  /** Chains a write after the one in progress, so that two writes never overlap. */
  #enqueue(): void {
    this.#writing = this.#writing.then(async () => {
      const store = this.#store;
      if (!store || store.revision === this.#savedVersion || this.#lost) return;
      try {
        await this.#write(store);
        if (this.#failure) {
          this.#failure = undefined;
          this.#logger.info({ stateFile: this.path }, 'the state file is written again; changes are accepted');
        }
      } catch (error) {
        this.#lastError = error as Error;
        this.#failure ??= new HttpError(
          'store_unavailable',
          `the state file ${this.path} cannot be written (${errorCode(error)}) since ${new Date().toISOString()}: changes are refused until a write succeeds, so that none is acknowledged and then lost (retried every second)`,
        );
        this.#logger.error(
          { err: error, stateFile: this.path },
          'cannot save the state file; changes are refused until it can be written (will retry)',
        );
        // The next change tries again; so does this timer, in case none comes.
        if (!this.#closed && !this.#retryTimer) {
          this.#retryTimer = setTimeout(
            () => {
              this.#retryTimer = undefined;
              this.#enqueue();
            },
            Math.max(this.debounceMs, 1_000),
          );
          this.#retryTimer.unref();
        }
      }
    });
  }

  #snapshot(store: MemoryStore): { version: number; text: string } {
    const state = {
      format: stateFormat,
      version: stateFormatVersion,
      savedAt: new Date().toISOString(),
      scenario: store.scenarioName,
      ...store.contents(),
    };
    return { version: store.revision, text: `${stringifyJson(state)}\n` };
  }

  #tempPath(): string {
    return join(dirname(this.path), `${this.#tempPrefix}${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  /**
   * Before the new state replaces the file: a file that is not the one the
   * mock last read or wrote (edited by hand, replaced by an editor's save,
   * restored from a backup) is kept aside, never overwritten without a word.
   * A file removed meanwhile is written again, with a warning.
   */
  #keepChangedFile(): void {
    let now: BigIntStats;
    try {
      now = lstatSync(this.path, { bigint: true });
    } catch (error) {
      if (!isEnoent(error)) throw error;
      if (this.#seen) {
        this.#logger.warn(
          { stateFile: this.path },
          'the state file was removed while the mock ran; it is written again',
        );
        this.#seen = undefined;
      }
      return;
    }
    if (this.#seen && sameFile(this.#seen, identity(now))) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const kept = `${this.path}.edited-${stamp}`;
    renameSync(this.path, kept);
    this.#logger.warn(
      { stateFile: this.path, kept },
      `the state file was changed by another program while the mock ran: that version is kept as ${kept}, and the mock's pets are written to ${this.path}; stop the mock before editing the file, then start it on the file you want`,
    );
  }

  /** The temporary file, written: what the state file will be once it is renamed over it. */
  #written(temp: string): FileIdentity {
    return identity(lstatSync(temp, { bigint: true }));
  }

  async #write(store: MemoryStore): Promise<void> {
    const started = performance.now();
    const { version, text } = this.#snapshot(store);
    const temp = this.#tempPath();
    let written: FileIdentity;
    try {
      await this.#writer.write(temp, text);
      written = this.#written(temp);
      this.#keepChangedFile();
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.#seen = written;
    syncDirectory(dirname(this.path));
    this.#savedVersion = version;
    this.#writes++;
    this.#logger.debug(
      { stateFile: this.path, items: store.counts(), bytes: text.length, ms: Math.round(performance.now() - started) },
      'state file saved',
    );
  }

  #writeSync(store: MemoryStore): void {
    const { version, text } = this.#snapshot(store);
    const temp = this.#tempPath();
    let written: FileIdentity;
    try {
      this.#writer.writeSync(temp, text);
      written = this.#written(temp);
      this.#keepChangedFile();
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    this.#seen = written;
    syncDirectory(dirname(this.path));
    this.#savedVersion = version;
    this.#writes++;
  }

  #removeLeftovers(): void {
    let entries: string[];
    try {
      entries = readdirSync(dirname(this.path));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith(this.#tempPrefix)) rmSync(join(dirname(this.path), entry), { force: true });
    }
  }
}
