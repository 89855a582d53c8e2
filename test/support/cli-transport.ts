import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'lossless-json';
import { TestRunner } from 'vitest';
import { killRunningClis, startCli, waitForBanner, type Cli } from '../cli/start-cli.js';
import {
  ownFixture,
  rawSender,
  type DocumentUnderTest,
  type StartOptions,
  type Target,
  type Transport,
} from './behaviour-subject.js';
import { putBack } from './put-back.js';
import { loadDocument } from '../../src/node/load-document.js';
import { precompileValidators } from '../../src/precompile-validators.js';

/**
 * Where the scenarios of the tests' own go as files (the CLI reads one at start): made by a test file's first
 * such scenario, removed with the file's CLIs (`stopClis`). Not made when this module loads: a worker's files
 * share its modules, one file after another.
 */
let fixtureFolder: string | undefined;
const fixtureFolderOfTheFile = (): string => (fixtureFolder ??= mkdtempSync(join(tmpdir(), 'petstore-cli-fixture-')));

/**
 * The validators of each document other than the kit's, precompiled once for the file's CLIs (`--validators`):
 * a start then spends nothing compiling them, which is most of what one with `--document` costs. The run-time
 * compile at start is what mock-behaviour.test.ts's CLIs do, for every document.
 */
const validatorsOf = new Map<string, string>();
function precompiledFor(document: DocumentUnderTest): string {
  let path = validatorsOf.get(document.path);
  if (path === undefined) {
    path = join(fixtureFolderOfTheFile(), `validators-${validatorsOf.size}.js`);
    writeFileSync(path, precompileValidators(loadDocument(document.path), { source: document.path }));
    validatorsOf.set(document.path, path);
  }
  return path;
}

/** The CLI's defaults, which need no flag. */
const defaults: Record<string, unknown> = { seed: 1, pets: 50, scenario: 'default', keys: ['test-key'] };

/** Whether an option asks for something other than the CLI's default. */
const asksFor = (options: StartOptions, name: keyof StartOptions): boolean =>
  options[name] !== undefined && stringify(options[name]) !== stringify(defaults[name]);

/**
 * The options whose flags do the same whatever the document (`--pets`, `--max-pets`, the byte limits, `--latency`,
 * `--allowed-host`), asked for by a test or two each, a process each: the CLI turns them into createNodeMock's
 * options before it reads the document. Through the CLI those tests run over the kit's own document; what these
 * options do to every other document is tried through mock.fetch (behaviour-through-mock-fetch.test.ts) and
 * node:http (behaviour-on-redis.test.ts), which run every document. The flags a suite's many tests share
 * (`--token`, `--seed`, `--max-sessions`) are not among them: one process serves all those tests.
 */
const documentFree = [
  'pets',
  'maxPets',
  'maxStoreBytes',
  'maxTotalStoreBytes',
  'latency',
  'allowedHosts',
] as const satisfies ReadonlyArray<keyof StartOptions>;

/** A scenario of the test's own, as the file the CLI reads it from at start. */
interface FixtureFile {
  path: string;
  text: string;
}

/**
 * The flags of `petstore-mock` for a test's options (none for a default, nor for an option it has no flag for),
 * and the file of a scenario of the test's own, to be written before it starts.
 */
function flags(document: DocumentUnderTest, options: StartOptions): { args: string[]; fixture?: FixtureFile } {
  const { scenario, keys, maxStoreBytes, maxTotalStoreBytes, latency, now } = options;
  const own = scenario === undefined ? undefined : options.fixtures?.[scenario];
  const args = ['--port', '0', '--log-level', 'warn', '--now', now ?? document.moment];
  if (!document.kit) args.push('--document', document.path, '--validators', precompiledFor(document));
  for (const [key, collection] of Object.entries(document.fixtureCollections ?? {})) {
    args.push('--fixture-collection', `${key}=${collection}`);
  }
  for (const key of keys ?? ['test-key']) args.push('--token', key);
  const numbers = { seed: '--seed', pets: '--pets', maxPets: '--max-pets', maxSessions: '--max-sessions' } as const;
  for (const [name, flag] of Object.entries(numbers)) {
    if (asksFor(options, name as keyof typeof numbers)) args.push(flag, String(options[name as keyof typeof numbers]));
  }
  if (maxStoreBytes !== undefined) args.push('--max-store-bytes', String(maxStoreBytes));
  if (maxTotalStoreBytes !== undefined) args.push('--max-total-store-bytes', String(maxTotalStoreBytes));
  for (const host of options.allowedHosts ?? []) args.push('--allowed-host', host);
  if (latency)
    args.push('--latency', latency.min === latency.max ? String(latency.min) : `${latency.min}-${latency.max}`);
  if (own) {
    // A scenario of the test's own is a fixture file, named after it (JSON is YAML; ints beyond 2^53 kept exact).
    const path = join(fixtureFolderOfTheFile(), `${scenario}.yaml`);
    args.push('--scenario', path);
    return { args, fixture: { path, text: stringify(ownFixture(document, own)) ?? '' } };
  }
  if (options.scenarioFile !== undefined) args.push('--scenario', options.scenarioFile);
  else if (asksFor(options, 'scenario')) args.push('--scenario', scenario as string);
  return { args };
}

/** Skips the running test, saying why, as `context.skip(note)` does: the run lists it as skipped, not passed. */
function skipTheTest(why: string): never {
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error(`${why}, and this is no test to skip`);
  test.context.skip(why);
  throw new Error('unreachable: skip() throws');
}

interface RunningCli {
  key: string;
  cli: Cli;
  origin: string;
  /** A key it accepts, for the admin calls that put it back to its start. */
  adminKey: string;
  busy: boolean;
}

/** Every CLI the transport started, kept between tests with the same options and put back to its start. */
const started: RunningCli[] = [];

/**
 * The built `petstore-mock` as users run it, over a socket: `--document`
 * for a document other than the kit's, a flag for each option. One process
 * per set of options serves one test after another, put back to its start
 * in between (its named sessions dropped, the default one reset). It serves
 * loopback origins and Host names only, as the CLI does.
 */
export const asTheCli: Transport = {
  name: 'the CLI',
  cannot(needs) {
    if (needs.journalSize !== undefined) return 'it has no flag for the journal’s size';
    if (needs.maxInflatedBytes !== undefined) return 'it has no flag for the bytes inflated bodies share';
    if (needs.origins === 'any') return 'it answers loopback origins and Host names only';
    if (needs.mock) return 'the mock runs in another process';
    if (needs.frozenAt !== undefined) return 'its clock runs in another process';
    if (needs.timers) return 'its timers run in another process';
    if (needs.hostless) return 'a request over a socket always has a Host';
    if (needs.withoutPages) return 'it serves the web pages, the API reference at / among them';
    if (needs.fixtures && Object.keys(needs.fixtures).some((name) => name !== needs.scenario)) {
      return 'it takes one scenario of its own, the one it starts with (--scenario FILE)';
    }
    return undefined;
  },
  async start(document, options): Promise<Target> {
    // One process per set of flags (the loopback policy is the CLI's own, and the pages it always serves) and
    // scenario of the test's own: a test with the same ones gets it back, put back to its start.
    const flag = document.kit ? undefined : documentFree.find((name) => asksFor(options, name));
    // Known only once a test asks for a mock (the suites declare what they need beside the options, not these).
    if (flag) skipTheTest(`through the CLI, the flag for ${flag} is tried over the kit's document`);
    const { args, fixture } = flags(document, options);
    const key = stringify([args, fixture?.text ?? null]) ?? '';
    let running = started.find((each) => each.key === key && !each.busy && each.cli.child.exitCode === null);
    if (running) {
      await putBack(running.origin, running.adminKey);
    } else {
      if (fixture) writeFileSync(fixture.path, fixture.text);
      const cli = startCli(args);
      const baseUrl = await waitForBanner(cli);
      running = {
        key,
        cli,
        origin: new URL(baseUrl).origin,
        adminKey: options.keys?.[0] ?? 'test-key',
        busy: false,
      };
      started.push(running);
    }
    const claimed = running;
    claimed.busy = true;
    return {
      origin: claimed.origin,
      baseUrl: `${claimed.origin}/v1`,
      mock: undefined,
      raw: rawSender(claimed.origin),
      close: async () => {
        claimed.busy = false;
      },
    };
  },
};

/** For `afterAll`: stops every CLI the transport started, and removes the files of its tests' own scenarios. */
export function stopClis(): void {
  started.splice(0);
  killRunningClis();
  if (fixtureFolder) rmSync(fixtureFolder, { recursive: true, force: true });
  fixtureFolder = undefined;
  validatorsOf.clear();
}
