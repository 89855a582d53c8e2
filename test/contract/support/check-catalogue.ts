import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type Proxy } from '../../../src/proxy/create-proxy.js';
import { startServer, type RunningServer } from '../../support/start-server.js';
import { type CatalogueEntry, catalogue, settleMsOf, tenantKey } from './catalogue.js';
import { type ReferenceServer, startReferenceServer } from './reference-server.js';
import { type RunnerResult, runBatch } from './run-runner.js';

/**
 * One part of the catalogue: the deployments of one kind (broken, or correct but different), cut into
 * `of` parts of about the same size, in the catalogue's order. Each part is checked by a test file of its
 * own, so that the files run side by side and no hook waits for the whole catalogue.
 */
export function cataloguePart(kind: CatalogueEntry['kind'], part: number, of: number): Array<[string, CatalogueEntry]> {
  const ofKind = Object.entries(catalogue).filter(([, entry]) => entry.kind === kind);
  const size = Math.ceil(ofKind.length / of);
  return ofKind.slice((part - 1) * size, part * size);
}

/**
 * Both runners, and the proxy, against every deployment of `entries`: the broken ones must fail the
 * contract suite with a message naming the rule and what broke (and Dredd and the proxy as the catalogue
 * says); the correct but different ones must pass all three. All deployments are served from this process
 * (each runner gets its own copy of each), and both runners check them all side by side in one process of
 * their own. The contract suite runs once per deployment, through the proxy, which passes its traffic on
 * unchanged (but hop-by-hop headers) and judges it: the suite's verdicts and the proxy's come from the same
 * exchanges, for the cost of one run. Where a proxy in between hides what the suite must see (`direct`: the
 * framing of the deployment's own bytes), the suite also runs against the deployment directly, and those
 * checks read that run. A broken deployment that a check of the suite fails is checked without the
 * stateful exploration (`foundBy`); every correct one with the whole of it.
 */
export function checkCatalogue(entries: Array<[string, CatalogueEntry]>): void {
  const token = 'catalogue-secret-3f9a1c';
  /** Whether this part holds the deployment `id`: the tests about one deployment are in its part's file. */
  const has = (id: string): boolean => entries.some(([entryId]) => entryId === id);
  const servers: Record<'direct' | 'dredd' | 'proxied', ReferenceServer[]> = { direct: [], dredd: [], proxied: [] };
  const proxies: Array<{ proxy: Proxy; server: RunningServer; maxInFlight(): number }> = [];
  /** The deployments of this part the suite also runs against directly (`CatalogueEntry.direct`). */
  const direct = entries.filter(([, entry]) => entry.direct);
  let dredd: RunnerResult[] = [];
  let throughProxy: RunnerResult[] = [];
  let directRuns: RunnerResult[] = [];
  /** The suite's runs with each entry's other keys (`otherKeys`), through the entry's own proxy. */
  let otherKeyRuns: Array<{ index: number; key: string; result: RunnerResult }> = [];

  function commandLine(entry: CatalogueEntry, baseUrl: string, key = token): string[] {
    return ['--base-url', baseUrl, '--token', key, ...(entry.readOnly ? ['--read-only'] : [])];
  }

  /**
   * The contract suite's command line: the entry's settle window (the proxy judges with the same), and no exploration for a broken
   * deployment that a check of the suite fails (`foundBy`); a correct one gets the whole exploration.
   */
  function suiteCommandLine(entry: CatalogueEntry, baseUrl: string, key = token): string[] {
    const explored = entry.kind === 'correct' || entry.foundBy === 'the exploration';
    return [
      ...commandLine(entry, baseUrl, key),
      '--settle',
      String(settleMsOf(entry)),
      ...(explored ? [] : ['--budget', '0']),
    ];
  }

  async function startProxies(): Promise<void> {
    for (const [index, upstream] of servers.proxied.entries()) {
      const entry = entries[index]?.[1] as CatalogueEntry;
      const proxy = createProxy({ upstream: upstream.baseUrl, settleMs: settleMsOf(entry) });
      // Requests at once as the suite sends them, counted where they reach the proxy.
      let inFlight = 0;
      let maxInFlight = 0;
      const server = await startServer((request, response) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        response.on('close', () => (inFlight -= 1));
        proxy.listener(request, response);
      });
      proxies.push({ proxy, server, maxInFlight: () => maxInFlight });
    }
  }

  beforeAll(async () => {
    const start = (checked: Array<[string, CatalogueEntry]>) =>
      Promise.all(checked.map(([, entry]) => startReferenceServer({ token, ...entry.options })));
    [servers.direct, servers.dredd, servers.proxied] = await Promise.all([
      start(direct),
      start(entries),
      start(entries),
    ]);
    await startProxies();
    const proxied = (index: number): string => proxies[index]?.server.baseUrl ?? '';
    const others = entries.flatMap(([, entry], index) => (entry.otherKeys ?? []).map((key) => ({ index, key })));
    // One process for both runners and all their deployments: it loads the kit and compiles the document once.
    const results = await runBatch({
      contract: [
        ...entries.map(([, entry], index) => suiteCommandLine(entry, proxied(index))),
        ...others.map(({ index, key }) => suiteCommandLine(entries[index]?.[1] as CatalogueEntry, proxied(index), key)),
        ...direct.map(([, entry], index) => suiteCommandLine(entry, servers.direct[index]?.baseUrl ?? '')),
      ],
      dredd: entries.map(([, entry], index) => commandLine(entry, servers.dredd[index]?.baseUrl ?? '')),
    });
    throughProxy = results.contract.slice(0, entries.length);
    otherKeyRuns = others.map((other, at) => ({
      ...other,
      result: results.contract[entries.length + at] as RunnerResult,
    }));
    directRuns = results.contract.slice(entries.length + others.length);
    dredd = results.dredd;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...servers.direct, ...servers.dredd, ...servers.proxied].map((server) => server.close()));
    await Promise.all(proxies.map(({ server }) => server.close()));
  });

  function resultOf(results: RunnerResult[], id: string): RunnerResult {
    const result = results[entries.findIndex(([entryId]) => entryId === id)];
    if (!result) throw new Error(`no result for '${id}'`);
    return result;
  }

  /** The contract suite's run the checks of the suite read: through the proxy, or directly where the entry says. */
  function suiteRunOf(id: string): RunnerResult {
    const at = direct.findIndex(([entryId]) => entryId === id);
    if (at === -1) return resultOf(throughProxy, id);
    const result = directRuns[at];
    if (!result) throw new Error(`no direct run for '${id}'`);
    return result;
  }

  function describeEntry(entry: CatalogueEntry): string {
    return `the deployment ${entry.what}`;
  }

  const passingTotals = /^\d+ passed, 0 failed, \d+ skipped in \d+\.\d s( \(\d+ warnings?\))?$/m;

  describe('the contract suite against the catalogue of deployments', () => {
    for (const [id, entry] of entries) {
      if (entry.kind === 'broken') {
        it(`fails when ${describeEntry(entry)} (${id})`, () => {
          const result = suiteRunOf(id);
          expect(result.output).toMatch(entry.message ?? /./);
          expect(result.code).toBe(1);
          expect(result.output).not.toContain(token);
        });
      } else {
        it(`passes when ${describeEntry(entry)} (${id})`, () => {
          const result = suiteRunOf(id);
          expect(result.stdout).toMatch(passingTotals);
          if (entry.message) expect(result.output).toMatch(entry.message);
          expect(result.code).toBe(0);
          expect(result.output).not.toContain(token);
        });
      }
    }

    it('sent every deployment at most 4 requests at once (--concurrency), and raced requests where a race shows', () => {
      for (const { maxInFlight } of proxies) expect(maxInFlight()).toBeLessThanOrEqual(4);
      for (const server of servers.direct) expect(server.maxInFlight()).toBeLessThanOrEqual(4);
      // Creates that take a moment overlapped: the suite's groups are sent at once, not one after another.
      for (const id of ['concurrent-same-id', 'concurrent-create-lost', 'ids-out-of-order'].filter(has))
        expect(proxies[entries.findIndex(([entryId]) => entryId === id)]?.maxInFlight(), id).toBeGreaterThan(1);
    });

    if (entries.some(([, entry]) => entry.readOnly))
      it('created nothing on the deployments checked read-only, with either runner, and sent them only GETs', () => {
        entries.forEach(([, entry], index) => {
          if (!entry.readOnly) return;
          expect(servers.proxied[index]?.petCount()).toBe(entry.options.pets ?? 30);
          expect(servers.dredd[index]?.petCount()).toBe(entry.options.pets ?? 30);
          for (const runner of ['proxied', 'dredd'] as const)
            expect(new Set(servers[runner][index]?.requestMethods()), runner).toEqual(new Set(['GET']));
        });
      });
  });

  if (has('status-echoed-not-stored'))
    describe('one verdict for the same evidence', () => {
      // A 201 that echoes the status sent, then reads that show another: the spec shows no transitions ("Transitions:
      // not shown"), so a status that moved between the 201 and the first read is indistinguishable from one the
      // service changed on its own. The suite and the proxy both observe it (status-changed), and neither fails it.
      const id = 'status-echoed-not-stored';
      const index = entries.findIndex(([entryId]) => entryId === id);

      it('the contract suite observes the stored status as status-changed, never as a lost write', () => {
        const result = suiteRunOf(id);
        expect(result.code).toBe(0);
        const observed = result.stdout.slice(result.stdout.indexOf('Observed, not specified'));
        expect(observed).toMatch(
          /shows pet \d+ with 'status' "\w+"; it was created with "\w+" \d+ ms earlier \(status-changed/,
        );
        expect(result.output).not.toMatch(/\[fail\]|lost write/);
      });

      it('the proxy, judging the same traffic, gives the same level: observed status-changed, nothing failing', () => {
        const report = proxies[index]?.proxy.report.toJson();
        const levels = new Set(
          report?.deployment.findings.filter((found) => found.rule === 'status-changed').map((found) => found.level),
        );
        expect(levels).toEqual(new Set(['observed']));
        expect(report?.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
        expect(report?.failed).toBe(false);
      });
    });

  if (has('name-nfc-normalised'))
    describe('one verdict for a name stored in another normal form', () => {
      // Canonically equivalent texts are the same text to Unicode (UAX #15), and the spec says nothing of
      // normalisation: a deployment that stores names in NFC is correct, which a strict byte-for-byte reading warns
      // of (text-normalised). The suite and the proxy both warn; neither fails it.
      const id = 'name-nfc-normalised';
      const index = entries.findIndex(([entryId]) => entryId === id);

      it('the contract suite warns text-normalised and passes', () => {
        const result = suiteRunOf(id);
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(/\(text-normalised/);
        expect(result.output).not.toMatch(/\[fail\]/);
      });

      it('the proxy, judging the same traffic, gives the same level: a text-normalised warning, nothing failing', () => {
        const report = proxies[index]?.proxy.report.toJson();
        const levels = new Set(
          report?.deployment.findings.filter((found) => found.rule === 'text-normalised').map((found) => found.level),
        );
        expect(levels).toEqual(new Set(['warn']));
        expect(report?.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
      });
    });

  if (has('stale-list-etag') || has('plain'))
    describe('conditional requests: one verdict from the suite and the proxy', () => {
      // A list whose strong ETag ignores the data: after the run's creates, its 200s carry the old tag with other content,
      // and a revalidation with the tag seen before the writes is answered 304 past the settle window.
      const id = 'stale-list-etag';
      const index = entries.findIndex(([entryId]) => entryId === id);

      if (has(id))
        it('the contract suite fails the stale 304 of its revalidation after the writes, naming the clause', () => {
          const result = suiteRunOf(id);
          expect(result.stdout).toMatch(
            // The run's model may say it first (a create came after a later answer with the same tag), or the check itself.
            /✗ listPets › conditional requests › answers 200, not 304, for the page the run's creates changed[^\n]*\n\s+\[fail\] not-modified-current: (GET \/pets\?limit=100 → 304: )?listPets answered 304 (for \/pets\?limit=100 )?to If-None-Match: "[^"]+", (its ETag before the run's writes|the ETag of an answer \d+ ms earlier), [^\n]*past the settle window/,
          );
        });

      if (has(id))
        it('the proxy, judging the same traffic, fails the strong ETag given to two representations', () => {
          const report = proxies[index]?.proxy.report.toJson();
          const failing = report?.deployment.findings.filter((found) => found.level === 'fail') ?? [];
          const rules = new Set(failing.map((found) => found.rule));
          expect(rules).toContain('strong-validator');
          // A 304 to a tag the traffic's settled creates made stale, when a create came after the newest answer with it.
          for (const rule of rules) expect(['strong-validator', 'not-modified-current']).toContain(rule);
          expect(failing.find((found) => found.rule === 'strong-validator')?.basis).toMatch(/RFC 9110 §8\.8\.1/);
        });

      if (has('plain'))
        it('judges a deployment without validators on none of them, and says so', () => {
          expect(suiteRunOf('plain').stdout).toMatch(
            /listPets sends neither ETag nor Last-Modified: conditional requests are not judged/,
          );
        });
    });

  if (has('tenant-per-key'))
    describe('a deployment with a store per key, through one proxy', () => {
      // Two keys, two tenants, each handing out ids from 31: the proxy keeps its memory per credential (a digest of
      // it), so the same id created under each key is no finding; the suite, with either key, passes too.
      const id = 'tenant-per-key';
      const index = entries.findIndex(([entryId]) => entryId === id);

      it('the suite passes with each key, and the two runs were given overlapping ids', () => {
        const runs = [
          resultOf(throughProxy, id),
          ...otherKeyRuns.filter((run) => run.index === index).map((run) => run.result),
        ];
        expect(runs).toHaveLength(2);
        const firstIds = runs.map((run) => /Created pets \(name prefix '[^']+'\): (\d+)/.exec(run.stdout)?.[1]);
        expect(firstIds[0]).toBeDefined();
        expect(firstIds[1]).toBe(firstIds[0]);
        for (const run of runs) expect(run.code, run.output).toBe(0);
      });

      it('the proxy judges each key against its own store, and keeps neither key in its report', () => {
        const report = proxies[index]?.proxy.report.toJson();
        expect(report?.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
        expect(report?.failed).toBe(false);
        expect(JSON.stringify(report)).not.toContain(tenantKey);
        expect(JSON.stringify(report)).not.toContain(token);
      });
    });

  describe('the Dredd runner against the catalogue of deployments', () => {
    for (const [id, entry] of entries) {
      const title =
        entry.dredd === 'fails'
          ? `fails when ${describeEntry(entry)} (${id})`
          : entry.kind === 'correct'
            ? `passes when ${describeEntry(entry)} (${id})`
            : `cannot see that ${describeEntry(entry)} (${id}): a documented gap`;
      it(title, () => {
        const result = resultOf(dredd, id);
        expect(result.output).not.toContain(token);
        if (entry.dredd === 'fails') {
          expect(result.stdout).toMatch(/^fail: /m);
          expect(result.code).toBe(1);
        } else {
          expect(result.stdout).toMatch(
            entry.readOnly
              ? /complete: 5 passing, 0 failing, 0 errors, 3 skipped, 8 total/
              : /complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/,
          );
          expect(result.code).toBe(0);
        }
      });
    }
  });

  describe('the validating proxy around the contract suite, against the catalogue of deployments', () => {
    for (const [id, entry] of entries) {
      const index = entries.findIndex(([entryId]) => entryId === id);
      if (entry.kind === 'correct') {
        it(`finds nothing failing when ${describeEntry(entry)} (${id}), and lists the suite's deliberate invalid requests as the client's`, () => {
          const report = proxies[index]?.proxy.report.toJson();
          expect(report?.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
          expect(report?.failed).toBe(false);
          expect(report?.client.fail).toBeGreaterThan(0);
          // Through the proxy, the suite still passes: the proxy passes the traffic on unchanged.
          const proxied = resultOf(throughProxy, id);
          expect(proxied.code, proxied.output).toBe(0);
        });
      } else if (entry.proxy === 'passes') {
        it(`cannot see in the suite's traffic that ${describeEntry(entry)} (${id}): a documented gap`, () => {
          expect(proxies[index]?.proxy.report.toJson().failed).toBe(false);
          expect(resultOf(throughProxy, id).code).toBe(1);
        });
      } else {
        it(`fails when ${describeEntry(entry)} (${id})`, () => {
          const report = proxies[index]?.proxy.report.toJson();
          expect(report?.failed).toBe(true);
          // The proxy fails it by the rule the suite's message names: one oracle, one verdict.
          const rule = /\\\[fail\\\] ([a-z0-9-]+):/.exec(entry.message?.source ?? '')?.[1];
          const rules = new Set(report?.deployment.findings.filter((f) => f.level === 'fail').map((f) => f.rule));
          expect(rule).toBeDefined();
          expect([...rules]).toContain(rule);
          expect(JSON.stringify(report)).not.toContain(token);
          expect(resultOf(throughProxy, id).code).toBe(1);
        });
      }
    }
  });
}
