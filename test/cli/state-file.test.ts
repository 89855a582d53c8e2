import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { StateFile } from '../../src/persistence/state-file.js';
import type { Int64 } from '../../src/core/json/exact-json.js';
import { createItemListCheck } from '../../src/core/store/check-item-list.js';
import { petResource } from '../support/kit-model.js';
import type { ExactPet } from '../../src/core/types/api-types.js';
import { killRunningClis, startCli, waitForBanner, type Cli } from './start-cli.js';

/** The CLI's debounce (StateFile's default). */
const debounceMs = 100;
/**
 * The rest of the promise: twice the time of one write (a change can just miss
 * the write in progress). One write of the 5,000 to 12,000 pets used here took
 * 60–74 ms (median) and at most 244 ms under this load: the README promises 600 ms.
 */
const marginMs = 500;

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Acknowledged {
  pet: ExactPet;
  /** performance.now() when the 201 arrived. */
  at: number;
}

/**
 * Sends creates from `workers` concurrent loops until `stop()` is called or the
 * mock stops answering; records every 201 and when it arrived.
 */
function writeHeavyLoad(baseUrl: string, tag: string, workers = 8) {
  const acknowledged: Acknowledged[] = [];
  let stopped = false;
  const loop = async (worker: number) => {
    for (let n = 0; !stopped; n++) {
      try {
        const response = await fetch(`${baseUrl}/pets`, {
          method: 'POST',
          headers: { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `${tag}-${worker}-${n}`, categoryId: worker, status: 'pending' }),
        });
        const body = (await response.json()) as ExactPet;
        if (response.status === 201) acknowledged.push({ pet: body, at: performance.now() });
      } catch {
        return; // the mock is gone
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, worker) => loop(worker)));
  return {
    acknowledged,
    /** Resolves once `count` creates acknowledged before `before()` (a time on performance.now()'s clock) are in. */
    async acknowledgedAtLeast(count: number, before: () => number = () => Infinity): Promise<void> {
      while (acknowledged.filter(({ at }) => at < before()).length < count) {
        if (stopped) throw new Error(`the load stopped after ${acknowledged.length} acknowledged creates`);
        await sleep(10);
      }
    },
    stop: async () => {
      stopped = true;
      await done;
    },
    done,
  };
}

/** The state file, read and validated exactly as a starting mock does (throws if it is not valid). */
function readState(path: string): Map<Int64, ExactPet> {
  const state = new StateFile(path).read();
  if (!state) throw new Error(`${path} does not exist`);
  const pets = createItemListCheck(compiled, petResource)(state.items.pets, path) as ExactPet[];
  return new Map(pets.map((pet) => [pet.id, pet]));
}

describe('petstore-mock --state-file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-cli-state-'));
    path = join(dir, 'state.json');
  });
  afterEach(() => {
    killRunningClis();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (extra: string[] = []): Promise<{ cli: Cli; baseUrl: string }> => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--state-file', path, ...extra]);
    return { cli, baseUrl: await waitForBanner(cli) };
  };

  it('keeps every create acknowledged more than debounce + margin before a SIGKILL, in a valid file, over three crashes', async () => {
    const mustSurvive = new Map<Int64, ExactPet>();
    for (let round = 0; round < 3; round++) {
      const { cli, baseUrl } = await start(['--pets', '5000']);
      if (round > 0) expect(cli.stdout()).toMatch(/State {6}\S+state\.json \(\d+ pets restored\)/);
      const load = writeHeavyLoad(baseUrl, `round${round}`);
      // Kill at an unpredictable moment, well after the first debounced writes: once 20 creates are older
      // than the promise's debounce + margin (however busy the machine), and up to 600 ms later.
      await load.acknowledgedAtLeast(20, () => performance.now() - debounceMs - marginMs);
      await sleep(Math.random() * 600);
      const killedAt = performance.now();
      cli.child.kill('SIGKILL');
      await cli.exited;
      await load.stop();

      const saved = readState(path);
      for (const { pet, at } of load.acknowledged) {
        if (at < killedAt - debounceMs - marginMs) mustSurvive.set(pet.id, pet);
      }
      for (const pet of mustSurvive.values()) expect(saved.get(pet.id)).toEqual(pet);
      // Acknowledged late or not at all: either way, the file holds only whole pets the mock created.
      for (const pet of saved.values()) expect(pet.id).toBeGreaterThan(0);
    }
    // Each round waited for 20 creates older than debounce + margin before its kill, so at least 60 creates were
    // held to the promise above: the test cannot pass by having nothing to check.

    // And the mock starts on the file and serves them.
    const { baseUrl } = await start(['--pets', '5000']);
    const [last] = [...mustSurvive.values()].slice(-1);
    const response = await fetch(`${baseUrl}/pets/${last?.id}`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(await response.json()).toEqual(last);
  }, 60_000);

  it('saves everything acknowledged when stopped with SIGTERM in the middle of a load', async () => {
    const { cli, baseUrl } = await start(['--scenario', 'one-of-each-status']);
    const load = writeHeavyLoad(baseUrl, 'term');
    // In the middle of the load: once creates are being acknowledged, however busy the machine.
    await load.acknowledgedAtLeast(21);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    await load.stop();
    expect(load.acknowledged.length).toBeGreaterThan(20);
    const saved = readState(path);
    for (const { pet } of load.acknowledged) expect(saved.get(pet.id)).toEqual(pet);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('restores the pets, the scenario and the next id after a restart', async () => {
    const first = await start(['--scenario', 'one-of-each-status']);
    const created = await fetch(`${first.baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
    });
    expect(created.status).toBe(201);
    first.cli.child.kill('SIGTERM');
    await first.cli.exited;
    const second = await start(['--scenario', 'default']);
    expect(second.cli.stdout()).toContain('Scenario   one-of-each-status');
    expect(second.cli.stdout()).toContain("from the state file, not 'default' as asked");
    expect(second.cli.stdout()).toContain(`State      ${path} (4 pets restored)`);
    const listed = await fetch(`${second.baseUrl}/pets`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(((await listed.json()) as ExactPet[]).map((pet) => pet.name)).toEqual(['Bella', 'Max', 'Luna', 'Rex']);
  });

  it.each([
    [
      'corrupt',
      '{"format":"petstore-kit-state","version":1,"scenario":"default","pets":[{"id":1,"na',
      'is not valid JSON',
    ],
    ['foreign', '{"compilerOptions": {"strict": true}}', 'is not a petstore-kit state file'],
    [
      'schema-invalid',
      '{"format":"petstore-kit-state","version":1,"scenario":"default","pets":[{"id":1,"name":"A","categoryId":1,"status":"lost"}]}',
      "field 'pets[0].status' must be one of: available, pending, sold; it is left untouched",
    ],
  ])(
    'refuses to start on a %s file with one line naming it, and leaves its bytes alone',
    async (_kind, content, words) => {
      writeFileSync(path, content);
      const cli = startCli(['--port', '0', '--state-file', path]);
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toContain(`petstore-mock: cannot start: ${path}: `);
      expect(cli.stderr()).toContain(words);
      expect(cli.stderr().trim().split('\n')).toHaveLength(1);
      expect(readFileSync(path, 'utf8')).toBe(content);
      expect(readdirSync(dir)).toEqual(['state.json']);
    },
  );

  it('creates the missing folders of a new state file, as on a fresh machine', async () => {
    const nested = join(dir, 'no-such-folder', 'deeper', 'state.json');
    const { cli } = await start(['--state-file', nested]);
    expect(cli.stdout()).toContain(`State      ${nested} (new)`);
    expect(existsSync(nested)).toBe(true);
  });

  it('refuses to start, in one line, when the state file cannot be created', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const impossible = join(dir, 'a-file', 'state.json');
    const cli = startCli(['--port', '0', '--state-file', impossible]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(`petstore-mock: cannot start: ${impossible}: cannot be read (ENOTDIR)\n`);
  });

  it('refuses a second mock on the same state file, in one line naming the file and the first mock', async () => {
    const { cli: first } = await start();
    const second = startCli(['--port', '0', '--state-file', path]);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(
      new RegExp(
        `^petstore-mock: cannot start: ${path}: is in use by another mock, process ${first.child.pid} on .+ \\(lock ${path}\\.lock\\); stop it, or name another --state-file\n$`,
      ),
    );
    // The first one still serves and saves.
    expect(first.child.exitCode).toBeNull();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('reads the state file from PETSTORE_STATE_FILE', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent'], { PETSTORE_STATE_FILE: path });
    await waitForBanner(cli);
    expect(existsSync(path)).toBe(true);
  });
});
