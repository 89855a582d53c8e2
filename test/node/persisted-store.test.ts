import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreFullError } from '../../src/core/store/store-errors.js';
import { createNodeMock, type NodeMockOptions } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { StateFile, StateFileError, stateFormat, type StateFileWriter } from '../../src/persistence/state-file.js';
import { auth, jsonAuth, request, startServer, type RunningServer } from '../support/start-server.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a mock with a state file', () => {
  let dir: string;
  let path: string;
  let mock: RunningServer | undefined;
  let stateFile: StateFile | undefined;

  /** Starts the mock on the state file, as the CLI does. */
  const start = async (options: NodeMockOptions = {}) => {
    stateFile = new StateFile(path, { debounceMs: 20 });
    mock = await startServer(
      createNodeListener(createNodeMock({ keys: ['test-key'], scenario: 'one-of-each-status', ...options, stateFile })),
    );
    return mock;
  };
  /** Stops it as the CLI does on SIGTERM: the server first, then the final write. */
  const stop = async () => {
    await mock?.close();
    await stateFile?.close();
    mock = undefined;
    stateFile = undefined;
  };
  const create = (name: string) =>
    request<Pet>(`${mock?.baseUrl}/pets`, {
      method: 'POST',
      headers: jsonAuth,
      body: JSON.stringify({ name, categoryId: 9 }),
    });
  const names = async () =>
    (await request<Pet[]>(`${mock?.baseUrl}/pets?limit=100`, { headers: auth })).body.map((pet) => pet.name);
  const admin = (path: string, body?: unknown) =>
    request<{ scenario: string; pets: number }>(`${mock?.origin}/__admin/${path}`, {
      method: 'POST',
      headers: body === undefined ? auth : jsonAuth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const startFails = (options: NodeMockOptions = {}): Error => {
    try {
      createNodeMock({ scenario: 'one-of-each-status', ...options, stateFile: new StateFile(path, { debounceMs: 1 }) });
    } catch (error) {
      return error as Error;
    }
    throw new Error('the mock started');
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-persist-'));
    path = join(dir, 'state.json');
  });
  afterEach(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps created pets across a restart, with their ids', async () => {
    await start();
    const rex = await create('Rex');
    const kim = await create('Kim');
    await stop();
    await start();
    expect(await names()).toEqual(['Bella', 'Max', 'Luna', 'Rex', 'Kim']);
    const fetched = await request<Pet>(`${mock?.baseUrl}/pets/${kim.body.id}`, { headers: auth });
    expect(fetched.body).toEqual(kim.body);
    expect((await create('Next')).body.id).toBe(rex.body.id + 2);
  });

  it('still resets to the scenario after a restart, and keeps the reset', async () => {
    await start();
    await create('Rex');
    await stop();
    await start();
    expect((await admin('reset')).body).toEqual({ scenario: 'one-of-each-status', pets: 3 });
    await stop();
    await start();
    expect(await names()).toEqual(['Bella', 'Max', 'Luna']);
  });

  it('resets to the scenario it started from after a switch, and saves that', async () => {
    await start();
    expect((await admin('scenario', { name: 'empty' })).status).toBe(200);
    expect((await admin('reset')).body).toEqual({ scenario: 'one-of-each-status', pets: 3 });
    await stop();
    await start();
    expect(await names()).toEqual(['Bella', 'Max', 'Luna']);
    expect(stateFile?.loaded).toEqual({ scenario: 'one-of-each-status', pets: 3 });
  });

  it('keeps an admin scenario switch, even when started with another --scenario (the file wins)', async () => {
    await start();
    expect((await admin('scenario', { name: 'empty' })).status).toBe(200);
    await create('Only');
    await stop();
    await start({ scenario: 'default' });
    expect(await names()).toEqual(['Only']);
    const current = await request<{ current: string }>(`${mock?.origin}/__admin/scenarios`, { headers: auth });
    expect(current.body.current).toBe('empty');
    expect(stateFile?.loaded).toEqual({ scenario: 'empty', pets: 1 });
  });

  it('saves a create within the debounce time, before any shutdown', async () => {
    await start();
    await create('Rex');
    // Waits for the write the debounce timer makes (the mock is still running, so no shutdown wrote it), however
    // late a busy machine runs that timer.
    await vi.waitFor(
      () => {
        const saved = JSON.parse(readFileSync(path, 'utf8')) as { pets: Pet[] };
        expect(saved.pets.map((pet) => pet.name)).toContain('Rex');
      },
      { timeout: 30_000, interval: 10 },
    );
  });

  it.each([
    ['corrupt', '{"format": "petstore-kit-state", "version": 1, "pets": [{"id": 1,'],
    ['foreign', '{"name": "someone-else", "dependencies": {}}'],
    [
      'schema-invalid',
      JSON.stringify({ format: stateFormat, version: 1, scenario: 'empty', pets: [{ id: 1, name: 7, categoryId: 1 }] }),
    ],
  ])('refuses to start on a %s file, naming it, and never writes it', async (_kind, content) => {
    writeFileSync(path, content);
    const error = startFails();
    expect(error).toBeInstanceOf(StateFileError);
    expect(error.message).toContain(path);
    await sleep(50);
    expect(readFileSync(path, 'utf8')).toBe(content);
  });

  it('refuses a file saved with a scenario it does not know, saying how to go on', () => {
    writeFileSync(path, JSON.stringify({ format: stateFormat, version: 1, scenario: 'my-shop', pets: [] }));
    expect(startFails().message).toBe(
      `${path}: was saved with scenario 'my-shop', which is not known now (known: default, edge-cases, empty, large, one-of-each-status); pass its file with --scenario, or move the state file away to start from 'one-of-each-status'`,
    );
  });

  it('refuses a file with more pets than maxPets', () => {
    const pets = Array.from({ length: 5 }, (_, index) => ({ id: index + 1, name: `p${index}`, categoryId: 1 }));
    writeFileSync(path, JSON.stringify({ format: stateFormat, version: 1, scenario: 'empty', pets }));
    const error = startFails({ maxPets: 4 });
    expect(error).toBeInstanceOf(StoreFullError);
    expect(error.message).toContain(
      `the pets saved in ${path} would make the store hold 5 pets, more than its maximum of 4 `,
    );
  });

  it('answers 503 store_unavailable to creates while the state file cannot be written, says so in health, and recovers', async () => {
    let failing = false;
    const writer: StateFileWriter = {
      write: async (temp, text) => {
        if (failing) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        writeFileSync(temp, text, { flag: 'wx' });
      },
      writeSync: (temp, text) => writeFileSync(temp, text, { flag: 'wx' }),
    };
    stateFile = new StateFile(path, { debounceMs: 10, writer });
    mock = await startServer(
      createNodeListener(createNodeMock({ keys: ['test-key'], scenario: 'one-of-each-status', stateFile })),
    );
    const health = () =>
      request<{ status: unknown; code?: string; message?: string }>(`${mock?.origin}/__admin/health`);
    expect((await health()).body).toMatchObject({ status: 'ok', role: 'mock' });

    failing = true;
    expect((await create('Acknowledged, then the disk filled')).status).toBe(201);
    await vi.waitFor(() => expect(stateFile?.failure).toBeDefined(), { timeout: 30_000 });
    const refused = await create('Refused');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'store_unavailable', status: 503 });
    expect((refused.body as unknown as { message: string }).message).toContain(
      `the state file ${path} cannot be written (ENOSPC)`,
    );
    const degraded = await health();
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({ code: 'store_unavailable', status: 503 });
    expect(degraded.body.message).toContain('(ENOSPC)');
    expect(await names()).toEqual(['Bella', 'Max', 'Luna', 'Acknowledged, then the disk filled']);

    failing = false;
    // The next create asks for a write at once (and a timer retries every second): once it succeeds, creates work.
    await vi.waitFor(async () => expect((await create('Accepted again')).status).toBe(201), { timeout: 30_000 });
    expect((await health()).body).toMatchObject({ status: 'ok', role: 'mock' });
    await stop();
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { pets: Pet[] };
    expect(saved.pets.map((pet) => pet.name)).toEqual([
      'Bella',
      'Max',
      'Luna',
      'Acknowledged, then the disk filled',
      'Accepted again',
    ]);
  });
});
