import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/core/json/exact-json.js';
import { type ReferenceOptions, type ReferenceServer, startReferenceServer } from './support/reference-server.js';
import { runRunner } from './support/run-runner.js';

const token = 'runner-secret-b6e02f';
const workDir = mkdtempSync(join(tmpdir(), 'contract-runner-test-'));
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(workDir, { recursive: true, force: true });
});

async function deployment(options: Partial<ReferenceOptions> = {}): Promise<ReferenceServer> {
  const server = await startReferenceServer({ token, ...options });
  servers.push(server);
  return server;
}

interface JsonReport {
  totals: { passed: number; failed: number; skipped: number };
  operations: Record<string, Array<{ name: string; state: string }>>;
  observed: Array<{ operationId: string; message: string }>;
  coverage: {
    documentedReceived: number;
    documented: number;
    rows: Array<{ operationId: string; status: string; documented: boolean; received: number }>;
  };
  createdPetIds: Array<number | bigint>;
  namePrefix: string;
}

/** Ids written as decimal text, in the order of their values (ids beyond 2^53 included). */
const byValue = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : 1);

// Each check starts its own deployment: they run side by side, so that both CPUs work.
describe.concurrent('the contract runner', { timeout: 90_000 }, () => {
  it('passes against a correct deployment, one request at a time, with a summary, a coverage table, JUnit and JSON reports, and no key anywhere', async () => {
    const server = await deployment();
    const before = server.petCount();
    const junit = join(workDir, 'contract.xml');
    const json = join(workDir, 'contract.json');
    const result = await runRunner('contract', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const operationId of ['listPets', 'createPet', 'getPet']) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${operationId} +\\d+ passed, 0 failed$`, 'm'));
    }
    expect(result.stdout).toMatch(
      /Observed, not specified \(never a failure\):\n(.*\n)*\s+listPets: GET \/pets\?limit=0 → 400: query parameter 'limit' must be >= 1; answered 400 \(code invalid_parameter\) \(open-input\)/,
    );
    expect(result.stdout).toMatch(/createPet: a pet created without 'status' has status \(absent\)/);
    expect(result.stdout).toMatch(
      /^Coverage: 8 of 8 documented responses received\n {2}operation {2}status {2}received\n {2}listPets {3}200 {5}\d+\n/m,
    );
    expect(result.stdout).toMatch(/^ {2}getPet {5}400 {5}\d+ \(not documented\)$/m);
    expect(result.stdout).toMatch(/✓ listPets › returns at most 1 pet for limit=1 /);

    const report = parseExactJson(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.totals.failed).toBe(0);
    expect(report.totals.passed).toBeGreaterThan(80);
    expect(Object.keys(report.operations).sort()).toEqual(['createPet', 'exploration', 'getPet', 'listPets']);
    expect(report.coverage).toMatchObject({ documentedReceived: 8, documented: 8 });
    expect(report.coverage.rows).toContainEqual({
      operationId: 'createPet',
      status: '201',
      documented: true,
      received: expect.any(Number),
    });
    expect(report.createdPetIds.length).toBe(server.petCount() - before);
    // Creates sent together (--concurrency, 4 by default) are listed in the order they were answered: the same ids,
    // exactly, in any order.
    expect(report.createdPetIds.map(String).sort(byValue)).toEqual(server.petIds().slice(before));
    expect(result.stdout).toContain(
      `Created pets (name prefix '${report.namePrefix}'): ${report.createdPetIds.join(', ')}`,
    );
    expect(report.namePrefix).toMatch(/^contract-test-[0-9a-f]{6}-$/);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="0"/);
    expect(xml).toContain('answers 401 with an Error without an Authorization header');
    expect(`${result.output}${xml}${readFileSync(json, 'utf8')}`).not.toContain(token);
    expect(server.requestCount()).toBeGreaterThan(200);
    expect(server.maxInFlight()).toBe(1);
  });

  it('creates nothing in read-only mode, still checks the rest, reads the environment, and accepts a JSON charset', async () => {
    const server = await deployment({ charset: true });
    const before = server.petCount();
    const json = join(workDir, 'read-only.json');
    const result = await runRunner('contract', ['--read-only', '--json', json], {
      CONTRACT_BASE_URL: server.baseUrl,
      CONTRACT_TOKEN: token,
    });
    expect(result.code).toBe(0);
    expect(server.petCount()).toBe(before);
    expect(result.stdout).toContain('Created pets: none');
    expect(result.stdout).toMatch(/^ {2}createPet {2}201 {5}not received$/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.totals.skipped).toBeGreaterThan(0);
    expect(report.coverage).toMatchObject({ documentedReceived: 5, documented: 8 });
    const passedIn = (operationId: string): number =>
      (report.operations[operationId] ?? []).filter((check) => check.state === 'passed').length;
    expect(passedIn('listPets')).toBeGreaterThan(20);
    expect(passedIn('getPet')).toBeGreaterThan(20);
    // Whether a request writes comes from its method: no POST leaves in read-only mode, with any key, so every
    // check of createPet (its authentication checks too) is skipped.
    expect(passedIn('createPet')).toBe(0);
    expect(report.operations.createPet?.every((check) => check.state === 'skipped')).toBe(true);
    expect(new Set(server.requestMethods())).toEqual(new Set(['GET']));
  });

  it('keeps ids beyond 2^53 exact from listing to request to report', async () => {
    const server = await deployment({ firstId: 9_223_372_036_854_775_000n });
    const json = join(workDir, 'ids.json');
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--json', json]);
    expect(result.code).toBe(0);
    const report = parseExactJson(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.createdPetIds[0]).toBe(9_223_372_036_854_775_030n);
    // Creates sent together are listed in the order they were answered: the same ids, exactly, in any order.
    expect(report.createdPetIds.map(String).sort(byValue)).toEqual(server.petIds().slice(30));
    const created = /Created pets \(name prefix [^)]*\): (.*)/.exec(result.stdout)?.[1]?.split(', ');
    expect(created?.sort(byValue)).toEqual(server.petIds().slice(30));
  });

  it('redacts the key when a deployment echoes it back in a failure', async () => {
    const server = await deployment({ breakage: 'text-401-echoing-key' });
    const junit = join(workDir, 'echo.xml');
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--junit', junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('(body starts: "no access for Basic [redacted]")');
    expect(`${result.output}${readFileSync(junit, 'utf8')}`).not.toContain(token);
    // The near-keys the checks send are secret too: an echo of one would show all of the key but a letter.
    expect(result.output).not.toContain(token.slice(0, -1));
  });

  it('warns about a short key and hides it only where it stands as a credential', async () => {
    const server = await startReferenceServer({ token: 'pets', breakage: 'text-401-echoing-key' });
    servers.push(server);
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', 'pets']);
    expect(result.stderr).toMatch(/^warning: the API key is shorter than 8 characters/);
    expect(result.stdout).toContain('(body starts: "no access for Basic [redacted]")');
    expect(result.stdout).toMatch(/GET \/pets\?limit=\d+ → 401/);
    expect(result.stdout).toMatch(/Created pets \(name prefix 'contract-test-[0-9a-f]{6}-'\): 31, /);
    expect(result.output).not.toMatch(/Bearer pets|Basic pets/);
  });

  it('sends each --header with every request, printing only values that do not look like credentials', async () => {
    const server = await deployment();
    const apiKey = 'sk_live_51H8cXq2eZvKYlo2C';
    const result = await runRunner('contract', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--read-only',
      '--header',
      'Petstore-Session: w1',
      '--header',
      `X-Gateway-Key: ${apiKey}`,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^petstore-contract: checking http:\/\/127\.0\.0\.1:\d+\/v1 \(read-only\) with extra headers petstore-session: w1, x-gateway-key: \[redacted\]$/m,
    );
    expect(server.requestsWithHeader('petstore-session', 'w1')).toBe(server.requestCount());
    expect(server.requestsWithHeader('x-gateway-key', apiKey)).toBe(server.requestCount());
    expect(result.output).not.toContain(apiKey);
  });

  it('reports what it cannot prove on a deployment with almost no data, without failing', async () => {
    const server = await deployment({ pets: 1 });
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--read-only']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Not provable with the data present \(not failures\):\n(.*\n)*\s+listPets: limit=1: the largest page holds only 1 pet, so ignoring the limit cannot show/,
    );
  });

  it('stops at once with exit 2 and one line when the base URL lacks /v1', async () => {
    const server = await deployment();
    const origin = server.baseUrl.replace(/\/v1$/, '');
    const result = await runRunner('contract', ['--base-url', origin, '--token', token]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: ${origin}/pets answered 404: ${origin} is not the API's base URL (the base URL must include the version segment, e.g. /v1)\n`,
    );
    expect(server.requestCount()).toBe(1);
  });

  it('exits 2 with one line when the deployment cannot be reached', async () => {
    const server = await deployment();
    await server.close();
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection refused \(ECONNREFUSED\)$/,
    );
  });

  it('shows a warning with its rule and basis without failing, and fails on it with --strict', async () => {
    const server = await deployment({ deprecationHeaders: false });
    const junit = join(workDir, 'warnings.xml');
    const json = join(workDir, 'warnings.json');
    const lenient = await runRunner('contract', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--read-only',
      '--junit',
      junit,
      '--json',
      json,
    ]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(
      /Warnings \(not failures\):\n\s+getPet: GET \/pets\/\d+ → 200: getPet is deprecated, but its answer carries neither Deprecation nor Sunset \(deprecation-header/,
    );
    expect(lenient.stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped in \d+\.\d s \(\d+ warnings?\)$/m);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="0"/);
    expect(xml).toMatch(/<property name="warn deprecation-header" value="getPet is deprecated/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      warnings: Array<{ rule: string; level: string; basis: string }>;
    };
    expect(report.warnings[0]).toMatchObject({
      rule: 'deprecation-header',
      level: 'warn',
      basis: expect.stringContaining('RFC 9745'),
    });

    const strict = await runRunner('contract', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--read-only',
      '--strict',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(
      /✗ getPet › answers 200 with the Pet carrying the requested id[^\n]*\n\s+\[warn\] deprecation-header/,
    );
  });

  it('writes a JUnit file that errs, saying why, when it cannot check the deployment', async () => {
    const server = await deployment();
    const origin = server.baseUrl.replace(/\/v1$/, '');
    const junit = join(workDir, 'unreachable.xml');
    const result = await runRunner('contract', ['--base-url', origin, '--token', token, '--junit', junit]);
    expect(result.code).toBe(2);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="petstore-contract" tests="1" failures="0" errors="1"/);
    expect(xml).toContain(`<error message="${origin}/pets answered 404`);
  });

  it('exits 2 with one line when the deployment refuses the key', async () => {
    const server = await deployment();
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', 'not-the-key']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/v1 refused the key: GET \/pets with it answered 401/,
    );
  });

  it('gives up on a deployment that does not answer within the per-request timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      const result = await runRunner('contract', ['--base-url', baseUrl, '--token', token, '--timeout', '300']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toMatch(
        /^error: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: no answer within 300 ms$/,
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('exits 2 with the usage when the key is missing, without starting any check', async () => {
    const result = await runRunner('contract', ['--base-url', 'http://127.0.0.1:9/v1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: an API key is required: pass --token KEY or set CONTRACT_TOKEN\nusage: petstore-contract/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await runRunner('contract', ['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `petstore-contract ${version}\n`, stderr: '' });
  });
});
