import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './support/reference-server.js';
import { runRunner } from './support/run-runner.js';

const token = 'runner-secret-b6e02f';
const workDir = mkdtempSync(join(tmpdir(), 'contract-runner-test-'));
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(workDir, { recursive: true, force: true });
});

async function deployment(options: Partial<Parameters<typeof startReferenceServer>[0]> = {}): Promise<ReferenceServer> {
  const server = await startReferenceServer({ token, ...options });
  servers.push(server);
  return server;
}

interface JsonReport {
  totals: { passed: number; failed: number; skipped: number };
  operations: Record<string, Array<{ name: string; state: string }>>;
  observed: Array<{ operationId: string; message: string }>;
  createdPetIds: number[];
  namePrefix: string;
}

describe('the contract runner', { timeout: 90_000 }, () => {
  it('passes against a correct deployment, one request at a time, with a summary by operation, JUnit and JSON reports, and no key anywhere', async () => {
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
    expect(result.stdout).toMatch(/Summary by operation:\n {2}(listPets|createPet|getPet) +\d+ passed, 0 failed/);
    for (const operationId of ['listPets', 'createPet', 'getPet']) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${operationId} +\\d+ passed, 0 failed$`, 'm'));
    }
    expect(result.stdout).toMatch(
      /Observed, not specified \(never a failure\):\n(.*\n)*\s+listPets: limit=0 → 400 \(code invalid_parameter\)/,
    );
    expect(result.stdout).toMatch(/createPet: a pet created without 'status' has status \(absent\)/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.totals.failed).toBe(0);
    expect(report.totals.passed).toBeGreaterThan(30);
    expect(Object.keys(report.operations).sort()).toEqual(['createPet', 'getPet', 'listPets']);
    expect(report.createdPetIds.length).toBe(server.petCount() - before);
    expect(result.stdout).toContain(
      `Created pets (name prefix '${report.namePrefix}'): ${report.createdPetIds.join(', ')}`,
    );
    expect(report.namePrefix).toMatch(/^contract-test-[0-9a-f]{6}-$/);

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="petstore-contract" tests="\d+" failures="0"/);
    expect(xml).toContain('answers 401 with an Error without an Authorization header');
    expect(`${result.output}${xml}${readFileSync(json, 'utf8')}`).not.toContain(token);
    expect(server.requestCount()).toBeGreaterThan(80);
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
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.totals.skipped).toBeGreaterThan(0);
    const passedIn = (operationId: string): number =>
      (report.operations[operationId] ?? []).filter((check) => check.state === 'passed').length;
    expect(passedIn('listPets')).toBeGreaterThan(10);
    expect(passedIn('getPet')).toBeGreaterThan(5);
    // createPet's authentication checks still run; they send a body that could not be stored.
    expect(passedIn('createPet')).toBe(5);
  });

  it('redacts the key when a deployment echoes it back in a failure', async () => {
    const server = await deployment({ breakage: 'malformed-401-body' });
    const junit = join(workDir, 'echo.xml');
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--junit', junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('"received":"Basic [REDACTED]"');
    expect(`${result.output}${readFileSync(junit, 'utf8')}`).not.toContain(token);
  });

  it('reports what it cannot prove on a deployment with almost no data, without failing', async () => {
    const server = await deployment({ pets: 1 });
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--read-only']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Not provable with the data present \(not failures\):\n(.*\n)*\s+listPets: limit=1: only 1 pets exist/,
    );
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
});
