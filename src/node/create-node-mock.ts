import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import type { OpenAPIV3 } from 'openapi-types';
import type { ScenarioSource } from '../core/create-mock-core.js';
import type { MockLogger } from '../core/support/mock-logger.js';
import { ItemListError } from '../core/store/check-item-list.js';
import { drawItems } from '../core/seed/draw-items.js';
import { keepGeneratedItems } from '../core/seed/keep-generated-items.js';
import { createMock, type Mock, type MockOptions } from '../create-mock.js';
import { defaultFixtures } from '../generated/default-fixtures.js';
import type { StateFile } from '../persistence/state-file.js';
import { StateFileError } from '../persistence/state-file.js';
import { inflateWithZlib } from './inflate-node.js';
import { loadDocument } from './load-document.js';
import { createPrismFallback } from './prism-fallback.js';
import { defaultDocumentPath } from '../package-root.js';
import { isScenarioPath, readFixtureFile, readFixturesDir } from './read-fixtures.js';

const require = createRequire(import.meta.url);

/**
 * Faker's English locale, required the first time items are generated that the kit did not make ahead (the
 * default scenario's are built in): importing the kit does not load it, and a mock is still ready at once.
 */
const generateKeptItems = keepGeneratedItems((options) =>
  drawItems((require('@faker-js/faker/locale/en') as { faker: Faker }).faker, options),
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

/**
 * The mock for Node: `createMock` of the core, plus what only Node has —
 * files (document, fixtures, state file), zlib's brotli, Prism for operations
 * without a handler, and Faker loaded synchronously when pets are generated,
 * so that the mock is ready at once.
 */
export function createNodeMock(options: NodeMockOptions = {}): Mock {
  const { document, fixturesDir, scenario, stateFile, ...rest } = options;
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
  let mock: Mock;
  try {
    mock = createMock({
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
    });
  } catch (error) {
    // The saved items are checked like a fixture's; a state file that fails the check is never written.
    if (error instanceof ItemListError) throw new StateFileError(`${error.message}; it is left untouched`);
    throw error;
  }
  // Last, so that nothing is written when anything above stops start-up.
  stateFile?.watch(mock.store);
  return mock;
}
