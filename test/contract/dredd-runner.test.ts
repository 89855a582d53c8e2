import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from './support/catalogue.js';
import { type Breakage, type ReferenceServer, breakages, startReferenceServer } from './support/reference-server.js';
import { runRunner } from './support/run-runner.js';

const token = 'dredd-secret-7d41be';
const workDir = mkdtempSync(join(tmpdir(), 'dredd-runner-test-'));
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(workDir, { recursive: true, force: true });
});

async function deployment(breakage?: Breakage, options: { charset?: boolean } = {}): Promise<ReferenceServer> {
  const server = await startReferenceServer({ token, breakage, ...options });
  servers.push(server);
  return server;
}

describe('the Dredd runner', { timeout: 90_000 }, () => {
  it('passes against a correct deployment, running every transaction and writing JUnit XML without the key', async () => {
    const server = await deployment();
    const junit = join(workDir, 'dredd.xml');
    const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token, '--junit', junit]);
    expect(result.stdout).toMatch(/complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/);
    expect(result.stdout).toMatch(/petstore-contract \(Dredd\): 8 transactions passed/);
    expect(result.code).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="Dredd Tests" tests="8" failures="0"/);
    expect(`${xml}${result.output}`).not.toContain(token);
  });

  it('takes the base URL and key from the environment, writes nothing in read-only mode, and accepts a JSON charset', async () => {
    const server = await deployment(undefined, { charset: true });
    const before = server.petCount();
    const result = await runRunner('dredd', ['--read-only'], {
      CONTRACT_BASE_URL: server.baseUrl,
      CONTRACT_TOKEN: token,
    });
    expect(result.stdout).toMatch(/complete: 7 passing, 0 failing, 0 errors, 1 skipped, 8 total/);
    expect(result.code).toBe(0);
    expect(server.petCount()).toBe(before);
  });

  it('exits 2 with one line when the deployment cannot be reached', async () => {
    const server = await deployment();
    await server.close();
    const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection refused \(ECONNREFUSED\)$/,
    );
  });
});

describe.concurrent('the Dredd runner against broken deployments', { timeout: 90_000 }, () => {
  for (const [breakage, entry] of Object.entries(catalogue)) {
    const what = breakages[breakage as Breakage];
    const title = entry.dreddFails
      ? `fails when the deployment ${what} (${breakage})`
      : `cannot see that the deployment ${what} (${breakage}): a documented gap`;
    it(title, async () => {
      const server = await deployment(breakage as Breakage);
      const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token]);
      expect(result.output).not.toContain(token);
      if (entry.dreddFails) {
        expect(result.stdout).toMatch(/^fail: /m);
        expect(result.code).toBe(1);
      } else {
        expect(result.stdout).toMatch(/complete: 8 passing, 0 failing/);
        expect(result.code).toBe(0);
      }
    });
  }
});

it('keeps its temporary plan out of the working directory', () => {
  expect(existsSync(join(process.cwd(), 'plan.json'))).toBe(false);
});
