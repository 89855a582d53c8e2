import type { OpenAPIV3 } from 'openapi-types';
import { createFetchHandler } from './adapters/fetch-adapter.js';
import {
  createMockCore,
  createSharedMockCore,
  type MockCore,
  type MockCoreOptions,
  type SharedMockCore,
} from './core/create-mock-core.js';
import { stringifyJson } from './core/json/exact-json.js';
import { markDocumentChecked } from './core/openapi/compile-document.js';
import { DocumentError } from './core/openapi/document-error.js';
import { provideAjv, type RunTimeCompiler } from './core/openapi/load-ajv.js';
import {
  checkPrecompiled,
  hashText,
  knowHash,
  usePrecompiledDocument,
  usePrecompiledLater,
  usePrecompiledValidators,
  type PrecompiledValidators,
} from './core/openapi/precompiled-validators.js';
import { markFixtureChecked } from './core/scenarios/scenario-catalogue.js';
import { rememberGeneratedItems } from './core/seed/keep-generated-items.js';
import type { StateStoreFactory } from './core/state/state-store-factory.js';
import { defaultDocument, defaultDocumentJson } from './generated/default-document.js';
import { defaultFixtures } from './generated/default-fixtures.js';
import { defaultScenarioItems } from './generated/default-scenario-items.js';
import { defaultAdminHash, defaultApiValidators } from './generated/default-validators.js';

// What `npm run generate` made ahead from openapi.yaml and fixtures/ (test/generated/ checks both are current):
// the kit's document and fixtures, which its tests check (the schemas against Ajv's meta-schema, the fixtures
// against the document), are not checked again at every start; their validators were compiled ahead (Ajv is not
// even loaded for them); and the default scenario's items for the default --pets and --seed need neither Faker nor
// drawing.
markDocumentChecked(defaultDocument);
usePrecompiledDocument(defaultApiValidators);
usePrecompiledLater(defaultAdminHash, () =>
  import('./generated/default-admin-validators.js').then(({ defaultAdminValidators }) => defaultAdminValidators),
);
knowHash(defaultDocumentJson, defaultApiValidators.hash);
for (const fixture of Object.values(defaultFixtures)) markFixtureChecked(fixture);
for (const { options, items } of defaultScenarioItems) rememberGeneratedItems(options, items);

export interface MockOptions extends Partial<Omit<MockCoreOptions, 'document' | 'fixtures'>> {
  /** The OpenAPI 3.0 document as an object. Default: the kit's openapi.yaml. */
  document?: OpenAPIV3.Document;
  /** More scenarios, by name, beside the kit's own (default, empty, large, edge-cases, one-of-each-status). */
  fixtures?: Readonly<Record<string, unknown>>;
  /**
   * Whether the kit's own scenarios are there too. Default true. With a
   * document of your own, each is checked against it when it is asked for
   * (the default scenario, generated, fits any document; one whose items
   * name no collection of it is refused then: see `fixtureCollections`).
   */
  kitFixtures?: boolean;
  /**
   * Where the validators of a document of your own come from, in a runtime that cannot compile them
   * itself: validators precompiled from the same document (`npx petstore-kit precompile openapi.yaml
   * --out validators.js`, then `import validators from './validators.js'`), which need no eval and so run
   * under a strict Content-Security-Policy; or, where eval is allowed, `runTimeCompiler` from
   * `petstore-kit/run-time-compiler`. Default: the kit's own are built in, and in Node a document of your
   * own is compiled when the mock is created.
   */
  validators?: PrecompiledValidators | RunTimeCompiler;
}

/** Makes the validators option known to the compiler: precompiled ones for their document only. */
function useValidators(validators: PrecompiledValidators | RunTimeCompiler, document: OpenAPIV3.Document): void {
  if ((validators as { kind?: unknown }).kind === 'run-time-compiler') {
    provideAjv((validators as RunTimeCompiler).library);
    return;
  }
  const precompiled = validators as PrecompiledValidators;
  checkPrecompiled(precompiled);
  if (hashText(stringifyJson(document)) !== precompiled.api.hash) {
    throw new DocumentError(
      `the validators given were precompiled from ${precompiled.source} as it was then, not from this document: precompile them again (npx petstore-kit precompile)`,
    );
  }
  usePrecompiledValidators(precompiled);
}

/** The mock in-process: the core, plus a Fetch-standard `fetch`. */
export interface Mock extends MockCore {
  /**
   * Answers a Fetch `Request`, or a URL and an init as `fetch` takes them, with a `Response`, without a port
   * (like Hono's `app.fetch`).
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
}

/** The mock over a state its replicas share (a Redis or Valkey server): the core, plus a Fetch-standard `fetch`. */
export interface SharedMock extends SharedMockCore {
  /** Answers a Fetch `Request`, or a URL and an init as `fetch` takes them, with a `Response`, without a port. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
}

export interface SharedMockOptions extends MockOptions {
  /** Builds the state replicas share (in Node: `createMock({ store: 'redis://…' })` builds it). */
  state: StateStoreFactory;
}

/** The core's options for the mock's: the kit's document and scenarios unless others are given. */
function coreOptions(options: MockOptions): MockCoreOptions {
  const { validators, ...rest } = options;
  if (validators) useValidators(validators, options.document ?? defaultDocument);
  return {
    ...rest,
    document: options.document ?? defaultDocument,
    documentSource: options.documentSource ?? (options.document ? 'document' : 'openapi.yaml'),
    fixtures: { ...(options.kitFixtures === false ? {} : defaultFixtures), ...options.fixtures },
    fixtureSource:
      options.fixtureSource ??
      ((name) =>
        name in defaultFixtures && !options.fixtures?.[name] ? `fixtures/${name}.yaml` : `fixture '${name}'`),
  };
}

/**
 * Creates the mock in-process, from objects only (no file system), so that it
 * runs the same in Node and in a browser. Every option has a default: the
 * kit's document and scenarios, the key `dev-key`, seed 1, 50 generated items of each collection.
 */
export function createMock(options: MockOptions = {}): Mock {
  const core = createMockCore(coreOptions(options));
  return Object.assign(core, { fetch: createFetchHandler(core.handleNow) });
}

/**
 * Creates the mock over a state shared by replicas: the same requests and
 * answers as `createMock`'s, the in-process calls returning promises.
 */
export function createSharedMock(options: SharedMockOptions): SharedMock {
  const { state, ...rest } = options;
  const core = createSharedMockCore({ ...coreOptions(rest), state });
  return Object.assign(core, { fetch: createFetchHandler(core.handleNow) });
}
