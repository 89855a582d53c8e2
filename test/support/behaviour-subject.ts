import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { OpenAPIV3 } from 'openapi-types';
import { it, type TestAPI } from 'vitest';
import type { Mock, MockOptions } from '../../src/create-mock.js';
import { createNodeMock, type NodeMockOptions } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { loadDocument } from '../../src/node/load-document.js';
import { loadWebPages } from '../../src/node/web-pages.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { documentFacts, type DocumentFacts, type ResourceFacts } from './document-facts.js';
import { kitCollection, kitScenario, type Item } from './kit-scenarios.js';
import { noRedisServer, startRedisServer, type RedisServer } from './redis-server.js';
import { inProcessMock, request, startServer, type JsonResponse } from './start-server.js';

/** A document the behaviour tests run over, with what the model reads from it. */
export interface DocumentUnderTest {
  /** A short name (`kit`, `renamed-to-animals`). */
  name: string;
  /** How test titles name it. */
  title: string;
  path: string;
  /** The file's text, as the mock serves it at /openapi.yaml. */
  text: string;
  /** Whether it is the kit's own openapi.yaml, which the mock serves when given no document. */
  kit: boolean;
  document: OpenAPIV3.Document;
  facts: DocumentFacts;
  /**
   * The collection the kit's scenarios fill in this document: `pets`, or,
   * where the document has none, the one collection of a renamed document,
   * which the scenarios' pets are mapped onto (see `fixtureCollections`).
   */
  scenarioCollection: string;
  /**
   * The explicit mapping it is served with where the kit's scenarios name a
   * collection it does not have (`{ pets: 'animals' }`: `fixtureCollections`,
   * `--fixture-collection pets=animals`).
   */
  fixtureCollections: Record<string, string> | undefined;
  /**
   * The moment every mock of the tests starts at unless a test sets its own:
   * the day before the earliest removal date (`x-sunset`) the document
   * gives, when it gives one, so that no answer depends on the machine's clock.
   */
  moment: string;
}

export function documentUnderTest(name: string, path: string, title = name): DocumentUnderTest {
  const document = loadDocument(path);
  const facts = documentFacts(document, path);
  const kit = path === defaultDocumentPath;
  // A document without the kit's collection, renamed: its one collection takes the kit's scenarios' items.
  const [only, ...others] = facts.resources;
  const mapped = !facts.resources.some((resource) => resource.name === kitCollection) && only !== undefined;
  if (mapped && others.length > 0)
    throw new Error(`${path}: which collection the kit's ${kitCollection} are cannot be told`);
  const sunsets = facts.deprecated
    .map((operation) => operation.sunset)
    .filter((sunset) => sunset !== undefined)
    .sort();
  const earliest = sunsets[0];
  return {
    name,
    title,
    path,
    text: readFileSync(path, 'utf8'),
    kit,
    document,
    facts,
    scenarioCollection: mapped ? only.name : kitCollection,
    fixtureCollections: mapped ? { [kitCollection]: only.name } : undefined,
    moment:
      earliest === undefined
        ? '2027-01-01T00:00:00.000Z'
        : new Date(Date.parse(`${earliest}T00:00:00Z`) - 86_400_000).toISOString(),
  };
}

/** The kit's own openapi.yaml. */
export const kitDocument = documentUnderTest('kit', defaultDocumentPath, 'the kit’s openapi.yaml');

/** A scenario of a test's own: items of one collection (the subject's; default the one the kit's scenarios fill). */
export interface OwnFixture {
  description: string;
  items: readonly Item[];
  collection?: string;
}

/** A fixture of the test's own as the mock reads it: its items under their collection's name. */
export function ownFixture(document: DocumentUnderTest, { description, items, collection }: OwnFixture) {
  return { description, [collection ?? document.scenarioCollection]: items };
}

/** What a test asks of the mock it starts; every transport turns these into its own options or flags. */
export interface StartOptions {
  /** A scenario of the kit's (fixtures/), or of `fixtures`, by name. */
  scenario?: string;
  /** A fixture file to start with (`--scenario ./my-shop.yaml`); the scenario is named after the file. */
  scenarioFile?: string;
  /** Scenarios of the test's own, by name: items of the collection the kit's scenarios fill. */
  fixtures?: Readonly<Record<string, OwnFixture>>;
  /** The accepted keys. Default `test-key`. */
  keys?: readonly string[];
  seed?: number;
  pets?: number;
  maxPets?: number;
  maxStoreBytes?: number;
  maxTotalStoreBytes?: number;
  maxSessions?: number;
  journalSize?: number;
  /** The bytes every request body being inflated shares at once (`maxInflatedBytes`). */
  maxInflatedBytes?: number;
  latency?: { min: number; max: number };
  /** The moment the mock's clock starts at, running on from there. Default the document's `moment`. */
  now?: string;
  /** A clock that stands still at this moment (in the test's process only). */
  frozenAt?: string;
  /** Which page origins and Host names it answers: any (the in-process default) or loopback ones (the CLI's). */
  origins?: 'any' | 'loopback';
  /** Host names answered besides loopback ones, under the loopback policy (`--allowed-host`). */
  allowedHosts?: readonly string[];
  /** Whether it serves the web pages (the reference, the dashboard) besides the API. */
  pages?: boolean;
}

/** What a test needs of the transport besides the options: raw requests over a socket, the in-process mock. */
export interface Needs extends StartOptions {
  raw?: boolean;
  mock?: boolean;
  /** Timers the test controls (`vi.useFakeTimers`): the mock's waits run on the test's clock, in its process. */
  timers?: boolean;
  /** An injected `timeout` fault that keeps the request waiting until the caller gives up. */
  hangs?: boolean;
  /** A request without a Host header (in-process; HTTP/1.1 over a socket always has one). */
  hostless?: boolean;
  /** No web pages beside the API (the CLI serves the reference at /). */
  withoutPages?: boolean;
  /** A request body over the body limit, answered 413. */
  bodyOverLimit?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends a request exactly as written (a method or body fetch refuses, a path it would normalise). */
export type RawSend = (
  method: string,
  path: string,
  headers?: Record<string, string>,
  body?: string,
) => Promise<RawAnswer>;

/** A running mock a test talks to. `request()` of start-server.ts reaches it, whatever the transport. */
export interface Target {
  /** `http://127.0.0.1:PORT`, or a made-up origin the transport answers in-process. */
  origin: string;
  /** `${origin}/v1` */
  baseUrl: string;
  /** The mock object, where the transport holds it in the test's process. */
  mock: Mock | undefined;
  /** Raw requests, where the transport has a socket. */
  raw: RawSend | undefined;
  close(): Promise<void>;
}

/** A way to run the mock: in-process through mock.fetch, over node:http, as the CLI, behind MSW. */
export interface Transport {
  /** How test titles name it. */
  name: string;
  /** Whether it serves the universal mock (`createMock`: no zlib, so no brotli; no Prism; no file system). */
  universal?: boolean;
  /** Why it cannot run a test with these needs over this document, or undefined when it can. */
  cannot(needs: Needs, document: DocumentUnderTest): string | undefined;
  start(document: DocumentUnderTest, options: StartOptions): Promise<Target>;
}

/** The options of createNodeMock (and, but for the document and the pages, of createMock) for a test's options. */
export function mockOptions(document: DocumentUnderTest, options: StartOptions): NodeMockOptions {
  const { scenario, scenarioFile, keys, origins, allowedHosts, pages, now, frozenAt, fixtures, ...limits } = options;
  const allKeys = keys ?? ['test-key'];
  const own = Object.fromEntries(
    Object.entries(fixtures ?? {}).map(([name, given]) => [name, ownFixture(document, given)]),
  );
  return {
    ...limits,
    // What `document: path` gives (the file's object, its text, its path naming it in messages), with the one
    // object the file was loaded into: every mock of the document then reuses its compiled validators, where a
    // path is read and compiled again for each (tens of milliseconds a test). The kit's own is precompiled.
    ...(document.kit
      ? {}
      : { document: document.document, documentText: document.text, documentSource: document.path }),
    ...(document.fixtureCollections ? { fixtureCollections: document.fixtureCollections } : {}),
    ...(fixtures ? { fixtures: own } : {}),
    ...(scenario === undefined ? {} : { scenario }),
    ...(scenarioFile === undefined ? {} : { scenario: scenarioFile }),
    keys: allKeys,
    ...(frozenAt === undefined ? { now: now ?? document.moment } : { clock: () => Date.parse(frozenAt) }),
    ...(origins === 'loopback'
      ? { cors: { origins: 'loopback' }, hosts: allowedHosts ? { allowed: allowedHosts } : {} }
      : {}),
    ...(pages ? { publicFiles: loadWebPages({ defaultKey: allKeys.length === 1 ? allKeys[0] : undefined }) } : {}),
  } as NodeMockOptions;
}

/** The options of the universal `createMock` (no file system: the document as an object, no pages) for a test's. */
export function universalMockOptions(document: DocumentUnderTest, options: StartOptions): MockOptions {
  const {
    document: _path,
    documentText: _text,
    documentSource: _source,
    fixturesDir: _dir,
    publicFiles: _pages,
    stateFile: _state,
    scenario,
    ...rest
  } = mockOptions(document, options);
  return {
    ...rest,
    ...(typeof scenario === 'string' ? { scenario } : {}),
    // The one object the file was loaded into, as each mock of the document is: its validators compiled once.
    ...(document.kit ? {} : { document: document.document }),
  };
}

/** The mock in-process, answered through `mock.fetch` with no port. */
export const inProcess: Transport = {
  name: 'mock.fetch',
  cannot: (needs) => (needs.raw ? 'raw requests need a socket' : undefined),
  async start(document, options) {
    const started = inProcessMock(mockOptions(document, options));
    return { ...started, raw: undefined };
  },
};

/** Sends a request exactly as written to `origin`, over node:http. */
export function rawSender(origin: string): RawSend {
  const url = new URL(origin);
  return (method, path, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const framing = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
      const sent = httpRequest(
        { host: url.hostname, port: url.port, method, path, headers: { ...headers, ...framing }, agent: false },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
}

/** The mock the CLI serves, in the test's process, over node:http on an ephemeral port of 127.0.0.1. */
export const overNodeHttp: Transport = {
  name: 'node:http',
  cannot: (needs) =>
    needs.timers
      ? 'fake timers would stop the sockets’ own'
      : needs.hostless
        ? 'a request over a socket always has a Host'
        : undefined,
  async start(document, options) {
    const mock = createNodeMock(mockOptions(document, options));
    const server = await startServer(createNodeListener(mock));
    return { origin: server.origin, baseUrl: server.baseUrl, mock, raw: rawSender(server.origin), close: server.close };
  },
};

/** The Redis server the `onRedis` transport's mocks share in this test file: started on first use. */
let redisServer: Promise<RedisServer> | undefined;
let prefixes = 0;

/** For `afterAll` of a file that runs `onRedis`: stops its Redis server. */
export async function stopRedisTransport(): Promise<void> {
  const running = redisServer;
  redisServer = undefined;
  if (running) await (await running).close();
}

/**
 * The mock with its state on a Redis server (`createMock({ store:
 * 'redis://…' })`, as a replica runs it), served over node:http on an
 * ephemeral port, each mock on a key prefix of its own, so that tests stay
 * independent on one server. Its in-process calls return promises, so the
 * suites that call the memory mock's are skipped here (the typed calls of a
 * shared mock are test/redis/shared-mock.test.ts's).
 */
export const onRedis: Transport = {
  name: 'node:http on a Redis store',
  cannot: (needs) =>
    noRedisServer ??
    (needs.timers
      ? 'fake timers would stop the Redis client’s own'
      : needs.hostless
        ? 'a request over a socket always has a Host'
        : needs.mock
          ? 'its in-process calls return promises (test/redis/shared-mock.test.ts tries them)'
          : undefined),
  async start(document, options) {
    redisServer ??= startRedisServer();
    const server = await redisServer;
    const mock = createNodeMock({
      ...mockOptions(document, options),
      store: server.url,
      storePrefix: `behaviour-${process.pid}-${++prefixes}`,
    });
    await mock.ready;
    const served = await startServer(createNodeListener(mock));
    return {
      origin: served.origin,
      baseUrl: served.baseUrl,
      mock: undefined,
      raw: rawSender(served.origin),
      close: async () => {
        await served.close();
        await mock.close();
      },
    };
  },
};

/** What a scenario of the kit's holds of the resource under test. */
export interface ScenarioFacts {
  name: string;
  /** Its literal items of the resource (none when it only generates them). */
  items: Item[];
  /** How many items of the resource it holds at the start. */
  size: number;
  /** The id a create gets first: one above the highest. */
  nextId: number | bigint;
}

/** A document, a resource of it and a transport: what one run of a behaviour suite tests. */
export interface Subject {
  document: DocumentUnderTest;
  facts: DocumentFacts;
  /** The resource the suite acts on. */
  resource: ResourceFacts;
  transport: Transport;
  /** Starts a mock with the test defaults (key `test-key`, the default scenario, seed 1) and `options`. */
  start(options?: StartOptions): Promise<Target>;
  /** Why this subject cannot run a test with these needs, or undefined. */
  cannot(needs: Needs): string | undefined;
  /** What a scenario of the kit's holds of the resource, given the options the mock starts with. */
  scenario(name: string, options?: StartOptions): ScenarioFacts;
}

/** The default count of a generated scenario (`--pets`), and of the default scenario in particular. */
const defaultPets = 50;

/** The id one above an item list's highest. */
function nextIdOf(items: readonly Item[], idField: string): number | bigint {
  const highest = items.reduce<number | bigint>((max, item) => {
    const id = item[idField] as number | bigint;
    return id > max ? id : max;
  }, 0);
  return typeof highest === 'bigint' ? highest + 1n : highest + 1;
}

/**
 * What a scenario of the kit's holds of a collection its fixtures do not
 * write (an animal's categories): the items the kit makes of it, generated
 * with the scenario's, or those the scenario's other items refer to, read
 * from a mock of the document in the test's process (their values are the
 * generator's; the behaviour tests compare with them, generation has its own
 * tests). A generated scenario's are counted, not listed, as the kit's are.
 */
function madeBy(
  document: DocumentUnderTest,
  resource: ResourceFacts,
  name: string,
  options: StartOptions,
): ScenarioFacts {
  const mock = createNodeMock(mockOptions(document, { ...options, scenario: name }));
  const all = mock.store.collection(resource.name).all();
  return {
    name,
    items: kitScenario(name).generate ? [] : all,
    size: all.length,
    nextId: nextIdOf(all, resource.idField),
  };
}

export function subjectOf(
  document: DocumentUnderTest,
  transport: Transport,
  resourceName = document.scenarioCollection,
): Subject {
  const resource = document.facts.resource(resourceName);
  return {
    document,
    facts: document.facts,
    resource,
    transport,
    // A scenario of the test's own holds items of the subject's collection.
    start: (options = {}) =>
      transport.start(document, {
        ...options,
        ...(options.fixtures
          ? {
              fixtures: Object.fromEntries(
                Object.entries(options.fixtures).map(([name, own]) => [
                  name,
                  { ...own, collection: own.collection ?? resource.name },
                ]),
              ),
            }
          : {}),
      }),
    cannot(needs) {
      const why = transport.cannot(needs, document);
      return why === undefined ? undefined : `through ${transport.name}, ${why}`;
    },
    scenario(name, options = {}) {
      const kit = kitScenario(name);
      if (resource.name !== document.scenarioCollection) return madeBy(document, resource, name, options);
      const items = kit.items;
      const generated = kit.generate ? (kit.generate.count ?? options.pets ?? defaultPets) : 0;
      const highest = items.reduce<number | bigint>((max, item) => {
        const id = item[resource.idField] as number | bigint;
        return id > max ? id : max;
      }, 0);
      const last = typeof highest === 'bigint' ? highest : highest + generated;
      return {
        name,
        items,
        size: items.length + generated,
        nextId: typeof last === 'bigint' ? last + 1n : last + 1,
      };
    },
  };
}

/**
 * `it` where the subject can run a test with these needs; elsewhere a skip
 * whose title says why (an option the CLI has no flag for, raw requests
 * without a socket).
 */
export function testsFor(subject: Subject, needs: Needs): TestAPI {
  const why = subject.cannot(needs);
  if (why === undefined) return it;
  const note = (title: string) => `${title} (skipped: ${why})`;
  const skip = ((title: string, fn?: () => unknown, timeout?: number) =>
    it.skip(note(title), fn as never, timeout)) as unknown as TestAPI;
  Object.assign(skip, {
    each: (cases: readonly unknown[]) => (title: string, fn?: unknown, timeout?: number) =>
      it.skip.each(cases as never)(note(title), fn as never, timeout),
  });
  return skip;
}

/**
 * For a suite that has nothing to run over a document (it has no operation
 * of the kind the suite tries): one skip whose title says so, so that the
 * run shows it rather than an empty suite.
 */
export function nothingToRun(why: string): void {
  it.skip(`nothing to run: ${why}`);
}

/**
 * `request()` of start-server.ts, but over the target's socket where it has
 * one, so that a `Host` header goes out as the test wrote it (fetch sends
 * the URL's own): what a page under another name sends.
 */
export async function requestAs<T = unknown>(
  target: Target,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<JsonResponse<T>> {
  if (!target.raw) return request<T>(url, init);
  const { pathname, search } = new URL(url);
  const answer = await target.raw(init.method ?? 'GET', `${pathname}${search}`, init.headers ?? {}, init.body);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const each of value === undefined ? [] : [value].flat()) headers.append(name, each);
  }
  const json = (headers.get('content-type') ?? '').includes('json') && answer.text !== '';
  return { status: answer.status, headers, text: answer.text, body: (json ? JSON.parse(answer.text) : undefined) as T };
}
