import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'lossless-json';
import { killRunningClis, startCli, waitForBanner, type Cli } from '../cli/start-cli.js';
import {
  ownFixture,
  rawSender,
  type DocumentUnderTest,
  type StartOptions,
  type Target,
  type Transport,
} from './behaviour-subject.js';
import { temporaryFolder } from './temporary-folder.js';

/** Where the scenarios of the tests' own go as files (the CLI reads one at start), removed after the test file. */
const fixtureFolder = temporaryFolder('petstore-cli-fixture-');

/** The flags of `petstore-mock` for a test's options; undefined for an option it has no flag for. */
function flags(document: DocumentUnderTest, options: StartOptions): string[] {
  const { scenario, keys, seed, pets, maxPets, maxStoreBytes, maxTotalStoreBytes, maxSessions, latency, now } = options;
  const own = scenario === undefined ? undefined : options.fixtures?.[scenario];
  const args = ['--port', '0', '--log-level', 'warn', '--now', now ?? document.moment];
  if (!document.kit) args.push('--document', document.path);
  for (const [key, collection] of Object.entries(document.fixtureCollections ?? {})) {
    args.push('--fixture-collection', `${key}=${collection}`);
  }
  for (const key of keys ?? ['test-key']) args.push('--token', key);
  const numbers = { '--seed': seed, '--pets': pets, '--max-pets': maxPets, '--max-sessions': maxSessions };
  for (const [flag, value] of Object.entries(numbers)) if (value !== undefined) args.push(flag, String(value));
  if (maxStoreBytes !== undefined) args.push('--max-store-bytes', String(maxStoreBytes));
  if (maxTotalStoreBytes !== undefined) args.push('--max-total-store-bytes', String(maxTotalStoreBytes));
  for (const host of options.allowedHosts ?? []) args.push('--allowed-host', host);
  if (latency)
    args.push('--latency', latency.min === latency.max ? String(latency.min) : `${latency.min}-${latency.max}`);
  if (own) {
    // A scenario of the test's own is a fixture file, named after it (JSON is YAML; ints beyond 2^53 kept exact).
    const file = join(fixtureFolder, `${scenario}.yaml`);
    writeFileSync(file, stringify(ownFixture(document, own)) ?? '');
    args.push('--scenario', file);
  } else if (options.scenarioFile !== undefined) {
    args.push('--scenario', options.scenarioFile);
  } else if (scenario !== undefined) {
    args.push('--scenario', scenario);
  }
  return args;
}

/** The CLI's defaults, which need no flag. */
const defaults: Record<string, unknown> = { seed: 1, pets: 50, scenario: 'default' };

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

/** Puts a CLI back to how it started: every named session dropped, the default one reset (scenario, faults, clock…). */
async function putBack(running: RunningCli): Promise<void> {
  const headers = { authorization: `Bearer ${running.adminKey}` };
  const listed = (await (await fetch(`${running.origin}/__admin/sessions`, { headers })).json()) as {
    sessions: Array<{ name: string }>;
  };
  for (const { name } of listed.sessions) {
    if (name === 'default') continue;
    const dropped = await fetch(`${running.origin}/__admin/sessions/${encodeURIComponent(name)}`, {
      method: 'DELETE',
      headers,
    });
    if (dropped.status !== 200) throw new Error(`could not drop session ${name}: ${dropped.status}`);
  }
  const reset = await fetch(`${running.origin}/__admin/reset`, { method: 'POST', headers });
  if (reset.status !== 200) throw new Error(`could not reset the CLI: ${reset.status} ${await reset.text()}`);
}

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
    // One process per set of flags: the loopback policy is the CLI's own, and a default is no flag.
    const { origins: _loopback, ...asked } = options;
    const key =
      stringify([document.path, Object.entries(asked).filter(([name, value]) => defaults[name] !== value)]) ?? '';
    let running = started.find((each) => each.key === key && !each.busy && each.cli.child.exitCode === null);
    if (running) {
      await putBack(running);
    } else {
      const cli = startCli(flags(document, options));
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

/** For `afterAll`: stops every CLI the transport started. */
export function stopClis(): void {
  started.splice(0);
  killRunningClis();
}
