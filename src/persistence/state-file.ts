import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseExactJson, stringifyJson } from '../core/json/exact-json.js';
import { silentLogger, type MockLogger } from '../core/mock-logger.js';
import type { PetStore } from '../core/store/pet-store.js';

/** The marker every state file starts with; a JSON file without it is not ours and is never touched. */
export const stateFormat = 'petstore-kit-state';
export const stateFormatVersion = 1;

/**
 * What a state file holds: the scenario the store was loaded from, and its
 * pets at the time of the write (checked by the mock's one pet-list check
 * when they are restored, exactly like a fixture's).
 */
export interface SavedState {
  scenario: string;
  pets: unknown;
}

/** A state file the mock cannot use. Its message names the file and the problem; the file is left as it is. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

export interface StateFileOptions {
  /** Time from the first unsaved change to the write that saves it, in ms. Default 100. */
  debounceMs?: number;
  /** Where write failures are reported. Default: silent. */
  logger?: MockLogger;
}

const isEnoent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

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
  readonly #tempPrefix: string;
  #store: PetStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #savedVersion = -1;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #writing: Promise<void> = Promise.resolve();
  #lastError: Error | undefined;
  #writes = 0;
  #loaded: { scenario: string; pets: number } | undefined;

  constructor(path: string, options: StateFileOptions = {}) {
    this.path = resolve(path);
    this.debounceMs = options.debounceMs ?? 100;
    this.#logger = options.logger ?? silentLogger;
    this.#tempPrefix = `.${basename(this.path)}.tmp-`;
  }

  /** What `read()` found: the saved scenario and how many pets; `undefined` before, or when there was no file. */
  get loaded(): { scenario: string; pets: number } | undefined {
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
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (isEnoent(error)) return undefined;
      throw new StateFileError(`${this.path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
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
    const state = value as { scenario?: unknown; pets?: unknown };
    if (typeof state.scenario !== 'string' || state.scenario === '' || !Array.isArray(state.pets)) {
      throw new StateFileError(`${this.path}: must hold a "scenario" name and a "pets" list; it is left untouched`);
    }
    const known = new Set(['format', 'version', 'savedAt', 'scenario', 'pets']);
    const unknown = Object.keys(state).find((key) => !known.has(key));
    if (unknown !== undefined) {
      throw new StateFileError(`${this.path}: has a field '${unknown}' this mock does not write; it is left untouched`);
    }
    this.#loaded = { scenario: state.scenario, pets: state.pets.length };
    return { scenario: state.scenario, pets: state.pets };
  }

  /**
   * Saves the store after every change from now on. When the file does not
   * exist yet it is written at once, synchronously, so that a directory that
   * cannot be written stops start-up rather than the first create. Leftover
   * temporary files of an earlier, killed run are removed.
   */
  watch(store: PetStore): void {
    if (this.#store) throw new Error('StateFile.watch: already watching a store');
    this.#store = store;
    this.#removeLeftovers();
    if (existsSync(this.path)) {
      this.#savedVersion = store.revision;
    } else {
      try {
        // A fresh machine has no ~/.petstore yet: make the folder, as the user asked for a file in it.
        mkdirSync(dirname(this.path), { recursive: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new StateFileError(`${this.path}: its folder ${dirname(this.path)} cannot be created (${code})`);
      }
      try {
        this.#writeSync(store);
      } catch (error) {
        throw new StateFileError(
          `${this.path}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      }
    }
    this.#unsubscribe = store.onChange(() => this.#schedule());
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

  /** Stops watching, then flushes. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    await this.flush();
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
      if (!store || store.revision === this.#savedVersion) return;
      try {
        await this.#write(store);
      } catch (error) {
        this.#lastError = error as Error;
        this.#logger.error({ err: error, stateFile: this.path }, 'cannot save the state file; will retry');
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

  #snapshot(store: PetStore): { version: number; text: string } {
    const state = {
      format: stateFormat,
      version: stateFormatVersion,
      savedAt: new Date().toISOString(),
      scenario: store.scenarioName,
      pets: store.all(),
    };
    return { version: store.revision, text: `${stringifyJson(state)}\n` };
  }

  #tempPath(): string {
    return join(dirname(this.path), `${this.#tempPrefix}${process.pid}-${randomBytes(4).toString('hex')}`);
  }

  async #write(store: PetStore): Promise<void> {
    const started = performance.now();
    const { version, text } = this.#snapshot(store);
    const temp = this.#tempPath();
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    syncDirectory(dirname(this.path));
    this.#savedVersion = version;
    this.#writes++;
    this.#logger.debug(
      { stateFile: this.path, pets: store.size, bytes: text.length, ms: Math.round(performance.now() - started) },
      'state file saved',
    );
  }

  #writeSync(store: PetStore): void {
    const { version, text } = this.#snapshot(store);
    const temp = this.#tempPath();
    try {
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, text, null, 'utf8');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
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
