import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../src/core/store/revision-counter.js';
import { createScenario } from '../../src/core/store/scenario.js';
import { petShape, petsIn } from '../support/kit-model.js';
import type { ExactPet } from '../../src/core/types/api-types.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { HttpError } from '../../src/core/errors/http-error.js';
import { StateFile, StateFileError, stateFormat, type StateFileWriter } from '../../src/persistence/state-file.js';

const revisions = createRevisionCounter();
const bella: ExactPet = { id: 1, name: 'Bella', categoryId: 1, status: 'available' };
const milo: ExactPet = { id: 2, name: 'Milo', categoryId: 2 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function validState(pets: unknown[] = [bella, milo], scenario = 'test'): Record<string, unknown> {
  return { format: stateFormat, version: 1, savedAt: '2025-01-01T00:00:00.000Z', scenario, pets };
}

function storeWith(pets: ExactPet[] = [bella, milo]): MemoryStore {
  const store = new MemoryStore({ shapes: [petShape], revisions });
  store.load(createScenario('test', { pets }, [petShape], revisions));
  return store;
}

describe('StateFile', () => {
  let dir: string;
  let path: string;
  const opened: StateFile[] = [];
  const stateFile = (debounceMs = 50) => {
    const file = new StateFile(path, { debounceMs });
    opened.push(file);
    return file;
  };
  const saved = () => JSON.parse(readFileSync(path, 'utf8')) as { scenario: string; pets: ExactPet[] };
  /** The message of the StateFileError that reading `content` throws. */
  const refusal = (content: string): string => {
    writeFileSync(path, content);
    try {
      stateFile().read();
    } catch (error) {
      expect(error).toBeInstanceOf(StateFileError);
      expect(readFileSync(path, 'utf8')).toBe(content);
      return (error as Error).message;
    }
    throw new Error('the state file was accepted');
  };
  /** The message of the StateFileError the mock stops with when it restores the pets of `content`. */
  const refusalOnStart = (content: string): string => {
    writeFileSync(path, content);
    try {
      createNodeMock({ scenario: 'one-of-each-status', stateFile: stateFile() });
    } catch (error) {
      expect(error).toBeInstanceOf(StateFileError);
      expect(readFileSync(path, 'utf8')).toBe(content);
      return (error as Error).message;
    }
    throw new Error('the state file was accepted');
  };
  const petsState = (pets: unknown[]) => JSON.stringify(validState(pets, 'one-of-each-status'));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-state-'));
    path = join(dir, 'state.json');
  });
  afterEach(async () => {
    for (const file of opened.splice(0)) await file.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('read', () => {
    it('finds nothing when the file does not exist', () => {
      const file = stateFile();
      expect(file.read()).toBeUndefined();
      expect(file.loaded).toBeUndefined();
    });

    it('returns the saved scenario and pets of a valid file', () => {
      writeFileSync(path, JSON.stringify(validState()));
      const file = stateFile();
      expect(file.read()).toEqual({ scenario: 'test', items: { pets: [bella, milo] } });
      expect(file.loaded).toEqual({ scenario: 'test', pets: 2 });
    });

    it('refuses a file that is not JSON, naming the file', () => {
      const message = refusal('{"format": "petstore-kit-state", "pets": [');
      expect(message).toContain(path);
      expect(message).toContain('is not valid JSON');
    });

    it('refuses an empty file', () => {
      expect(refusal('')).toContain('is not valid JSON');
    });

    it.each([
      ['a package.json', '{"name": "my-app", "version": "1.0.0"}'],
      ['an array', '[]'],
      ['a string', '"petstore-kit-state"'],
      ['null', 'null'],
      ['another format', '{"format": "other-tool", "version": 1, "scenario": "x", "pets": []}'],
    ])('refuses a foreign JSON file (%s) and says so', (_what, content) => {
      expect(refusal(content)).toBe(
        `${path}: is not a petstore-kit state file (no "format": "petstore-kit-state"); it is left untouched. Name another --state-file`,
      );
    });

    it('refuses a state format version it does not know', () => {
      expect(refusal(JSON.stringify({ ...validState(), version: 2 }))).toBe(
        `${path}: has state format version 2; this mock reads version 1. It is left untouched`,
      );
    });

    it('has the mock check every pet against the document’s Pet schema, naming the field', () => {
      expect(refusalOnStart(petsState([bella, { id: 2, name: 'Milo', categoryId: 2, status: 'lost' }]))).toBe(
        `${path}: field 'pets[1].status' must be one of: available, pending, sold; it is left untouched`,
      );
      expect(refusalOnStart(petsState([{ id: 3, name: 'Rex', categoryId: '3' }]))).toContain(
        "'pets[0].categoryId' must be integer",
      );
      expect(refusalOnStart(petsState([{ name: 'Rex', categoryId: 3 }]))).toContain("'pets[0].id' is required");
    });

    it('refuses fields a pet does not have, __proto__ included', () => {
      expect(refusalOnStart(petsState([{ ...bella, colour: 'brown' }]))).toContain(
        "'pets[0].colour' is not allowed here",
      );
      expect(
        refusalOnStart(
          `{"format":"${stateFormat}","version":1,"scenario":"one-of-each-status","pets":[{"id":1,"name":"a","categoryId":1,"__proto__":{"admin":true}}]}`,
        ),
      ).toContain("'pets[0].__proto__' is not allowed here");
      expect(({} as { admin?: unknown }).admin).toBeUndefined();
    });

    it('refuses a top-level field that is no list of items, and a missing scenario', () => {
      expect(refusal(JSON.stringify({ ...validState(), extra: 1 }))).toContain(
        "has a field 'extra' that is not a list of items",
      );
      const { scenario: _scenario, ...withoutScenario } = validState();
      expect(refusal(JSON.stringify(withoutScenario))).toContain(
        'must hold a "scenario" name and a list of each collection\'s items',
      );
    });

    it('keeps ids beyond 2^53 exactly, and refuses ids beyond int64 and repeated ids', () => {
      writeFileSync(
        path,
        `{"format":"${stateFormat}","version":1,"scenario":"one-of-each-status","pets":[{"id":9223372036854775807,"name":"Big","categoryId":9007199254740993}]}`,
      );
      const mock = createNodeMock({ scenario: 'one-of-each-status', stateFile: stateFile() });
      expect(petsIn(mock.store).get(9223372036854775807n)).toEqual({
        id: 9223372036854775807n,
        name: 'Big',
        categoryId: 9007199254740993n,
      });
      expect(
        refusalOnStart(
          `{"format":"${stateFormat}","version":1,"scenario":"one-of-each-status","pets":[{"id":9223372036854775808,"name":"Big","categoryId":1}]}`,
        ),
      ).toContain("'pets[0].id' must be an int64");
      expect(refusalOnStart(petsState([bella, { ...milo, id: 1 }]))).toContain('pets[1].id repeats id 1');
    });

    it('writes ids beyond 2^53 back exactly', async () => {
      const store = storeWith([{ id: 9223372036854775806n, name: 'Big', categoryId: 1 }]);
      const file = stateFile(10);
      file.watch(store);
      petsIn(store).create({ name: 'Bigger', categoryId: -9223372036854775808n });
      await file.flush();
      expect(readFileSync(path, 'utf8')).toContain(
        '"pets":[{"id":9223372036854775806,"name":"Big","categoryId":1},{"id":9223372036854775807,"name":"Bigger","categoryId":-9223372036854775808}]',
      );
    });
  });

  describe('watch', () => {
    it('writes a new file at once, in the state format', () => {
      stateFile().watch(storeWith());
      expect(saved()).toMatchObject({ format: stateFormat, version: 1, scenario: 'test', pets: [bella, milo] });
    });

    it('does not rewrite an existing file until the store changes', async () => {
      const content = JSON.stringify(validState());
      writeFileSync(path, content);
      const file = stateFile(10);
      const store = storeWith();
      file.read();
      file.watch(store);
      await sleep(50);
      expect(readFileSync(path, 'utf8')).toBe(content);
      petsIn(store).create({ name: 'Rex', categoryId: 3 });
      await vi.waitFor(() => expect(saved().pets).toHaveLength(3), { timeout: 30_000 });
    });

    it('saves a change within the debounce time, coalescing a burst into one write', async () => {
      const store = storeWith();
      const file = stateFile(50);
      file.watch(store);
      const before = file.writes;
      for (let index = 0; index < 20; index++) petsIn(store).create({ name: `pet ${index}`, categoryId: 1 });
      expect(saved().pets).toHaveLength(2);
      await vi.waitFor(() => expect(saved().pets).toHaveLength(22), { timeout: 30_000 });
      await sleep(100);
      expect(file.writes - before).toBe(1);
    });

    it('keeps saving under a steady stream of changes (the timer is not pushed back by each one)', async () => {
      const store = storeWith();
      const file = stateFile(50);
      file.watch(store);
      const ticker = setInterval(() => petsIn(store).create({ name: 'tick', categoryId: 1 }), 10);
      // A timer pushed back by each change would never fire while the changes go on: wait for four writes.
      await vi
        .waitFor(() => expect(file.writes).toBeGreaterThanOrEqual(4), { timeout: 30_000, interval: 20 })
        .finally(() => clearInterval(ticker));
      expect(saved().pets.length).toBeGreaterThan(2 + 3);
    });

    it('saves resets and scenario loads too', async () => {
      const store = storeWith();
      const file = stateFile(10);
      file.watch(store);
      petsIn(store).create({ name: 'Rex', categoryId: 3 });
      await file.flush();
      expect(saved().pets).toHaveLength(3);
      store.reset();
      await file.flush();
      expect(saved().pets).toEqual([bella, milo]);
      store.load(createScenario('other', { pets: [milo] }, [petShape], revisions));
      await file.flush();
      expect(saved()).toMatchObject({ scenario: 'other', pets: [milo] });
    });

    it('flush writes at once; close writes what is unsaved and stops watching', async () => {
      const store = storeWith();
      const file = stateFile(60_000);
      file.watch(store);
      petsIn(store).create({ name: 'Rex', categoryId: 3 });
      await file.flush();
      expect(saved().pets).toHaveLength(3);
      petsIn(store).create({ name: 'Max', categoryId: 3 });
      await file.close();
      expect(saved().pets).toHaveLength(4);
      petsIn(store).create({ name: 'after close', categoryId: 3 });
      await sleep(20);
      expect(saved().pets).toHaveLength(4);
    });

    it('serialises writes: many flushes at once all resolve, the last state wins, no temporary file is left', async () => {
      const store = storeWith();
      const file = stateFile(1);
      file.watch(store);
      const flushes: Promise<void>[] = [];
      for (let index = 0; index < 30; index++) {
        petsIn(store).create({ name: `pet ${index}`, categoryId: 1 });
        flushes.push(file.flush());
      }
      await Promise.all(flushes);
      expect(saved().pets).toHaveLength(32);
      // The file and, while it is watched, its lock.
      expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.lock']);
    });

    it('never lets a reader see a partial file: every read while writing parses as the whole state', async () => {
      const many = Array.from({ length: 20_000 }, (_, index) => ({
        id: index + 1,
        name: `pet ${index}`,
        categoryId: 1,
      }));
      const store = storeWith(many);
      const file = stateFile(1);
      file.watch(store);
      let reads = 0;
      const torn: string[] = [];
      let reading = true;
      const reader = () => {
        if (!reading) return;
        const text = readFileSync(path, 'utf8');
        reads++;
        try {
          JSON.parse(text);
        } catch {
          torn.push(`${text.length} bytes`);
        }
        setImmediate(reader);
      };
      reader();
      for (let index = 0; index < 20; index++) {
        petsIn(store).create({ name: `new ${index}`, categoryId: 2 });
        await file.flush();
      }
      reading = false;
      expect(reads).toBeGreaterThan(20);
      expect(torn).toEqual([]);
    });

    it('removes temporary files left by a killed run', () => {
      writeFileSync(join(dir, '.state.json.tmp-123-abcd'), '{"half": ');
      writeFileSync(join(dir, 'unrelated.txt'), 'keep me');
      stateFile().watch(storeWith());
      expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.lock', 'unrelated.txt']);
    });

    it('creates the folders a new file needs', () => {
      path = join(dir, 'no-such-folder', 'deeper', 'state.json');
      stateFile().watch(storeWith());
      expect(existsSync(path)).toBe(true);
    });

    it('stops start-up when the file cannot be created', () => {
      writeFileSync(join(dir, 'a-file'), '');
      path = join(dir, 'a-file', 'state.json');
      expect(() => stateFile().watch(storeWith())).toThrow(StateFileError);
      expect(() => stateFile().watch(storeWith())).toThrow(
        `${path}: its folder ${join(dir, 'a-file')} cannot be created (EEXIST)`,
      );
    });

    it('reports a failed write from flush, and saves on the next try once it can', async () => {
      const store = storeWith();
      const file = stateFile(10);
      file.watch(store);
      rmSync(dir, { recursive: true });
      petsIn(store).create({ name: 'Rex', categoryId: 3 });
      await expect(file.flush()).rejects.toThrow(/ENOENT/);
      mkdirSync(dir);
      await file.flush();
      expect(saved().pets).toHaveLength(3);
    });
  });

  describe('no change lost without an error', () => {
    const failing = (code: string) => {
      const error = (): Error => Object.assign(new Error(`${code}: simulated`), { code });
      let fail = false;
      const writer: StateFileWriter = {
        async write(temp, text) {
          if (fail) throw error();
          await nodeWriter().write(temp, text);
        },
        writeSync(temp, text) {
          if (fail) throw error();
          nodeWriter().writeSync(temp, text);
        },
      };
      return { writer, setFailing: (value: boolean) => (fail = value) };
    };
    const nodeWriter = (): StateFileWriter => ({
      write: async (temp, text) => writeFileSync(temp, text, { flag: 'wx' }),
      writeSync: (temp, text) => writeFileSync(temp, text, { flag: 'wx' }),
    });
    const watched = (options: ConstructorParameters<typeof StateFile>[1] = {}) => {
      const file = new StateFile(path, { debounceMs: 5, ...options });
      opened.push(file);
      return file;
    };

    it('refuses a second watcher of the same file, naming the process that holds the lock', () => {
      stateFile().watch(storeWith());
      expect(() => stateFile().watch(storeWith())).toThrow(StateFileError);
      expect(() => stateFile().watch(storeWith())).toThrow(
        new RegExp(
          `^${path}: is in use by another mock, this process \\(pid ${process.pid}\\), since .+ \\(lock ${path}\\.lock\\)`,
        ),
      );
    });

    it('lets the lock go on close, so that the next mock can take the file', async () => {
      const first = stateFile();
      first.watch(storeWith());
      await first.close();
      expect(existsSync(`${path}.lock`)).toBe(false);
      expect(() => stateFile().watch(storeWith())).not.toThrow();
    });

    it('takes over at once a lock left by a process of this machine that is gone (a SIGKILL)', () => {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(`${path}.lock`, JSON.stringify({ pid: gone, host: hostname(), since: '2030-01-01T00:00:00.000Z' }));
      stateFile().watch(storeWith());
      expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    });

    it('stops start-up when the folder of an existing file takes no new file (read-only), and lets the lock go', () => {
      writeFileSync(path, JSON.stringify(validState()));
      const { writer, setFailing } = failing('EROFS');
      setFailing(true);
      expect(() => watched({ writer }).watch(storeWith())).toThrow(
        `${path}: cannot be written: its folder ${dir} does not take a new file (EROFS), so every change would be lost; make it writable, or name another --state-file`,
      );
      expect(existsSync(`${path}.lock`)).toBe(false);
      expect(readFileSync(path, 'utf8')).toBe(JSON.stringify(validState()));
    });

    it('refuses every change with 503 store_unavailable while writes fail (a full disk), and accepts them once one succeeds', async () => {
      const store = storeWith();
      const { writer, setFailing } = failing('ENOSPC');
      const file = watched({ writer });
      file.watch(store);
      setFailing(true);
      petsIn(store).create({ name: 'Acknowledged before the failure was known', categoryId: 1 });
      await expect(file.flush()).rejects.toThrow(/ENOSPC/);
      expect(file.failure).toBeInstanceOf(HttpError);
      expect(store.writeProblem).toBe(file.failure);
      let refused: unknown;
      try {
        petsIn(store).create({ name: 'Refused', categoryId: 1 });
      } catch (error) {
        refused = error;
      }
      expect(refused).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect((refused as Error).message).toMatch(
        new RegExp(
          `^the state file ${path} cannot be written \\(ENOSPC\\) since \\S+: changes are refused until a write succeeds`,
        ),
      );
      expect(() => store.reset()).toThrow(/ENOSPC/);
      expect(petsIn(store).size).toBe(3);
      // The disk has room again: the refused change asked for a write at once, which saves the pet acknowledged before.
      setFailing(false);
      await vi.waitFor(() => expect(file.failure).toBeUndefined(), { timeout: 30_000 });
      expect(saved().pets.map((pet) => pet.name)).toContain('Acknowledged before the failure was known');
      expect(petsIn(store).create({ name: 'Accepted again', categoryId: 1 }).name).toBe('Accepted again');
      await file.flush();
      expect(saved().pets).toHaveLength(4);
    });
  });
});
