import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import type { OpenAPIV3 } from 'openapi-types';
import type { ScenarioSource } from '../core/create-mock-core.js';
import type { MockLogger } from '../core/support/mock-logger.js';
import { ItemListError } from '../core/store/check-item-list.js';
import { drawItemsLazily } from '../core/seed/draw-items.js';
import { keepGeneratedItems } from '../core/seed/keep-generated-items.js';
import { createMock, createSharedMock, type Mock, type MockOptions, type SharedMock } from '../create-mock.js';
import { defaultFixtures } from '../generated/default-fixtures.js';
import type { StateFile } from '../persistence/state-file.js';
import { StateFileError } from '../persistence/state-file.js';
import { inflateWithZlib } from './inflate-node.js';
import { loadDocument } from './load-document.js';
import { createPrismFallback } from './prism-fallback.js';
import { defaultDocumentPath } from '../package-root.js';
import { isScenarioPath, readFixtureFile, readFixturesDir } from './read-fixtures.js';
import { redactedUrl } from '../redis/redacted-url.js';

const require = createRequire(import.meta.url);

/**
 * Faker's English locale, required the first time items are generated that the kit did not make ahead (the
 * default scenario's are built in): importing the kit does not load it, and a mock is still ready at once.
 */
const generateKeptItems = keepGeneratedItems((options) =>
  drawItemsLazily((require('@faker-js/faker/locale/en') as { faker: Faker }).faker, options),
);

let kitDocument: string | undefined;

/** The kit's openapi.yaml as written, served at /openapi.yaml: read once a process, not at every mock. */
function kitDocumentText(): string {
  kitDocument ??= readFileSync(defaultDocumentPath, 'utf8');
  return kitDocument;
}

export interface NodeMockOptions extends Omit<MockOptions, 'document' | 'scenario'> {
  /** The OpenAPI 3.0 document: a file path (YAML or JSON) or an object. Default: the kit's openapi.yaml. */
  document?: string | OpenAPIV3.Document;
  /** A folder of fixture files whose scenarios replace the kit's own. Default: the kit's scenarios. */
  fixturesDir?: string;
  /** A scenario name, a fixture file path (`./my.yaml`), or a scenario object. Default `default`. */
  scenario?: string | ScenarioSource;
  /**
   * Keeps the store across restarts: the saved pets are restored over the
   * scenario (a reset still goes back to the scenario) and every change is
   * saved. The caller keeps the object, to `close()` it on shutdown.
   */
  stateFile?: StateFile;
}

/** Where a mock's state lives (see `createNodeMock`): this process's memory, or a server its replicas share. */
export interface StoreOptions {
  /**
   * Where the mock's state lives: `'memory'` (the default: this process's),
   * or a Redis or Valkey server that several replicas share,
   * `redis://[[user]:password@]host[:port][/db]` or `rediss://…` (TLS). With
   * a server, the mock's in-process calls return promises (`SharedMock`),
   * and `@redis/client` must be installed beside the kit.
   */
  store?: string;
  /** Namespaces every key on the server, so that two kits share one (`--store-prefix`). Default `petstore`. */
  storePrefix?: string;
  /** How long a call to the server may take before a request answers `503 store_unavailable`, in ms. Default 2000. */
  storeTimeout?: number;
  /** Seconds a named session on the server may go unused before it is dropped (`--session-ttl`); 0 for never. Default a day. */
  sessionTtl?: number;
}

/** A store URL: the state on a Redis or Valkey server, shared by every replica given the same URL and prefix. */
export type SharedStoreUrl = `redis://${string}` | `rediss://${string}`;

/** Whether a `store` option names a server (`redis://`, `rediss://`) rather than the memory of the process. */
export function isSharedStore(store: string | undefined): store is SharedStoreUrl {
  return store !== undefined && /^rediss?:\/\//i.test(store);
}

/**
 * The mock for Node: `createMock` of the core, plus what only Node has —
 * files (document, fixtures, state file), zlib's brotli, Prism for operations
 * without a handler, and Faker loaded synchronously when pets are generated,
 * so that the mock is ready at once. With `store: 'redis://…'`, its state is
 * on that server, shared with every replica given the same store and prefix,
 * and its in-process calls return promises (`SharedMock`).
 */
export function createNodeMock(options: NodeMockOptions & StoreOptions & { store: SharedStoreUrl }): SharedMock;
export function createNodeMock(options: NodeMockOptions & StoreOptions & { store: string }): Mock | SharedMock;
export function createNodeMock(options?: NodeMockOptions & { store?: 'memory' }): Mock;
export function createNodeMock(options: NodeMockOptions & StoreOptions = {}): Mock | SharedMock {
  const { document, fixturesDir, scenario, stateFile, store, storePrefix, storeTimeout, sessionTtl, ...rest } = options;
  const shared = isSharedStore(store);
  if (!shared && store !== undefined && store !== 'memory') {
    throw new Error(
      `the store is 'memory' or the URL of a Redis or Valkey server (redis://[:password@]host[:port][/db], rediss:// for TLS), not ${redactedUrl(store)}`,
    );
  }
  if (shared && stateFile) {
    throw new Error(
      "a state file keeps one process's memory store: with a Redis store the server keeps the state (its own persistence settings say what survives its restart); give one or the other",
    );
  }
  const logger: MockLogger | undefined = rest.logger;
  const read = fixturesDir ? readFixturesDir(fixturesDir) : undefined;
  const fromFile = typeof scenario === 'string' && isScenarioPath(scenario) ? readFixtureFile(scenario) : undefined;
  let chosen: string | ScenarioSource | undefined = fromFile ?? scenario;
  const saved = stateFile?.read();
  if (saved) {
    const requestedName = typeof chosen === 'object' ? chosen.name : (chosen ?? 'default');
    if (saved.scenario !== requestedName) {
      // The state file wins: it was saved after an admin switch, or by an earlier run, and holds the user's pets.
      const known = {
        ...(read || rest.kitFixtures === false ? {} : defaultFixtures),
        ...read?.fixtures,
        ...rest.fixtures,
      };
      // An own name only: `constructor` or `toString` is no scenario, though every object answers to it.
      if (!Object.hasOwn(known, saved.scenario)) {
        throw new StateFileError(
          `${stateFile?.path}: was saved with scenario '${saved.scenario}', which is not known now (known: ${Object.keys(known).join(', ')}); pass its file with --scenario, or move the state file away to start from '${requestedName}'`,
        );
      }
      logger?.warn(
        { stateFile: stateFile?.path, saved: saved.scenario, requested: requestedName },
        `the state file was saved with scenario '${saved.scenario}': using it, not '${requestedName}'`,
      );
      chosen = saved.scenario;
    }
  }
  let mock: Mock | SharedMock;
  try {
    const mockOptions: MockOptions = {
      ...rest,
      ...(typeof document === 'object'
        ? {}
        : { documentText: document === undefined ? kitDocumentText() : readFileSync(document, 'utf8') }),
      ...(document === undefined
        ? {}
        : typeof document === 'string'
          ? { document: loadDocument(document), documentSource: document }
          : { document }),
      ...(read
        ? {
            fixtures: { ...read.fixtures, ...rest.fixtures },
            kitFixtures: false,
            fixtureSource: (name: string) => read.sources[name] ?? `fixture '${name}'`,
          }
        : {}),
      ...(chosen === undefined ? {} : { scenario: chosen }),
      ...(saved && stateFile ? { saved: { items: saved.items, source: stateFile.path } } : {}),
      inflate: rest.inflate ?? inflateWithZlib,
      generateItems: rest.generateItems ?? generateKeptItems,
      fallback: rest.fallback ?? ((compiled) => createPrismFallback(compiled.document, logger)),
    };
    mock = shared
      ? createSharedMock({
          ...mockOptions,
          // Loaded only on this path, with the Redis client it loads: a frontend team's tests load neither.
          state: async (context) =>
            (await import('../redis/redis-state-store.js')).RedisStateStore.open(
              {
                url: store,
                ...(storePrefix === undefined ? {} : { prefix: storePrefix }),
                ...(storeTimeout === undefined ? {} : { deadlineMs: storeTimeout }),
                ...(sessionTtl === undefined ? {} : { sessionTtlMs: sessionTtl * 1000 }),
              },
              context,
            ),
        })
      : createMock(mockOptions);
  } catch (error) {
    // The saved items are checked like a fixture's; a state file that fails the check is never written.
    if (error instanceof ItemListError) throw new StateFileError(`${error.message}; it is left untouched`);
    throw error;
  }
  // Last, so that nothing is written when anything above stops start-up.
  if (stateFile && !('shared' in mock)) stateFile.watch(mock.store);
  return mock;
}
