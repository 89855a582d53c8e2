import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueEntry, catalogue } from './support/catalogue.js';
import { type ReferenceServer, startReferenceServer } from './support/reference-server.js';
import { type RunnerResult, runBatch } from './support/run-runner.js';

// Both runners against every deployment of the catalogue: the broken ones must fail the contract
// suite with a message naming the fault (and Dredd as the catalogue says); the correct but different
// ones must pass both. All deployments are served from this process (each runner gets its own copy of
// each), and each runner checks them all in one process of its own (one vitest start, one Dredd
// load), the two runners side by side.
const token = 'catalogue-secret-3f9a1c';
const entries = Object.entries(catalogue);
const servers: Record<'contract' | 'dredd', ReferenceServer[]> = { contract: [], dredd: [] };
let contract: RunnerResult[] = [];
let dredd: RunnerResult[] = [];

async function checkAll(runner: 'contract' | 'dredd'): Promise<RunnerResult[]> {
  servers[runner] = await Promise.all(entries.map(([, entry]) => startReferenceServer({ token, ...entry.options })));
  const commandLines = entries.map(([, entry], index) => [
    '--base-url',
    servers[runner][index]?.baseUrl ?? '',
    '--token',
    token,
    ...(entry.readOnly ? ['--read-only'] : []),
  ]);
  return runBatch(runner, commandLines);
}

beforeAll(async () => {
  [contract, dredd] = await Promise.all([checkAll('contract'), checkAll('dredd')]);
}, 240_000);

afterAll(async () => {
  await Promise.all([...servers.contract, ...servers.dredd].map((server) => server.close()));
});

function resultOf(results: RunnerResult[], id: string): RunnerResult {
  const result = results[entries.findIndex(([entryId]) => entryId === id)];
  if (!result) throw new Error(`no result for '${id}'`);
  return result;
}

function describeEntry(entry: CatalogueEntry): string {
  return `the deployment ${entry.what}`;
}

describe('the vitest contract suite against the catalogue of deployments', () => {
  for (const [id, entry] of entries) {
    if (entry.kind === 'broken') {
      it(`fails when ${describeEntry(entry)} (${id})`, () => {
        const result = resultOf(contract, id);
        expect(result.output).toMatch(entry.message ?? /./);
        expect(result.code).toBe(1);
        expect(result.output).not.toContain(token);
      });
    } else {
      it(`passes when ${describeEntry(entry)} (${id})`, () => {
        const result = resultOf(contract, id);
        expect(result.stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped in \d+\.\d s$/m);
        if (entry.message) expect(result.output).toMatch(entry.message);
        expect(result.code).toBe(0);
        expect(result.output).not.toContain(token);
      });
    }
  }

  it('sent every deployment one request at a time', () => {
    expect(servers.contract.map((server) => server.maxInFlight())).toEqual(servers.contract.map(() => 1));
  });

  it('created nothing on the deployments checked read-only, with either runner', () => {
    entries.forEach(([, entry], index) => {
      if (!entry.readOnly) return;
      expect(servers.contract[index]?.petCount()).toBe(entry.options.pets ?? 30);
      expect(servers.dredd[index]?.petCount()).toBe(entry.options.pets ?? 30);
    });
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
            ? /complete: 7 passing, 0 failing, 0 errors, 1 skipped, 8 total/
            : /complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/,
        );
        expect(result.code).toBe(0);
      }
    });
  }
});
