import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ReferenceOptions, type ReferenceServer, startReferenceServer } from './support/reference-server.js';
import { runRunner } from './support/run-runner.js';

// How Dredd fares against each broken and each correct-but-different deployment: deployment-catalogue-*.test.ts.
const token = 'dredd-secret-7d41be';
const workDir = mkdtempSync(join(tmpdir(), 'dredd-runner-test-'));
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

// Each check starts its own deployment: they run side by side, so that both CPUs work.
describe.concurrent('the Dredd runner', { timeout: 90_000 }, () => {
  it('passes against a correct deployment, running every transaction and writing JUnit XML without the key', async () => {
    const server = await deployment();
    const junit = join(workDir, 'dredd.xml');
    const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token, '--junit', junit]);
    expect(result.stdout).toMatch(/complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/);
    expect(result.stdout).toMatch(/^Coverage: 8 of 8 documented responses received$/m);
    expect(result.stdout).toMatch(/petstore-contract \(Dredd\): 8 transactions passed/);
    expect(result.code).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="Dredd Tests" tests="8" failures="0"/);
    expect(`${xml}${result.output}`).not.toContain(token);
  });

  it('takes the base URL and key from the environment, sends only GETs in read-only mode, and accepts a JSON charset', async () => {
    const server = await deployment({ charset: true });
    const before = server.petCount();
    const result = await runRunner('dredd', ['--read-only'], {
      CONTRACT_BASE_URL: server.baseUrl,
      CONTRACT_TOKEN: token,
    });
    // Every transaction of createPet (POST) is skipped, its 400 and 401 too: whether a request writes comes from
    // its method, whatever key it carries.
    expect(result.stdout).toMatch(/complete: 5 passing, 0 failing, 0 errors, 3 skipped, 8 total/);
    expect(result.code).toBe(0);
    expect(server.petCount()).toBe(before);
    expect(new Set(server.requestMethods())).toEqual(new Set(['GET']));
  });

  it('requests and reports ids beyond 2^53 exactly', async () => {
    const server = await deployment({ firstId: 9_007_199_254_740_993n });
    const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token]);
    expect(result.code).toBe(0);
    // The pet created for the 201 transaction: the next id after the 30 seeded, exact.
    expect(result.stdout).toContain("Created pets (name prefix 'contract-test-dredd-'): 9007199254741023");
    expect(server.petIds().at(-1)).toBe('9007199254741023');
  });

  it('fails a transaction whose body breaks the rules only when read exactly (an integer written 1.0)', async () => {
    const server = await deployment({ breakage: 'decimal-integers-written' });
    const result = await runRunner('dredd', ['--base-url', server.baseUrl, '--token', token]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /fail: Failed in after hook: the 201 body does not match the documented schema: response field 'categoryId' must be integer \(1\.0 is written as a decimal\)/,
    );
  });

  it('sends each --header with every request and redacts echoes of the key in Dredd’s own report', async () => {
    const server = await deployment({ breakage: 'text-401-echoing-key' });
    const secret = 'gw_9f8e7d6c5b4a39281706';
    const junit = join(workDir, 'echo.xml');
    const result = await runRunner('dredd', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--junit',
      junit,
      '--header',
      'Petstore-Session: w2',
      '--header',
      `X-Gateway-Token: ${secret}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/extra headers petstore-session: w2, x-gateway-token: \[redacted\]/);
    expect(server.requestsWithHeader('petstore-session', 'w2')).toBeGreaterThanOrEqual(8);
    expect(server.requestsWithHeader('x-gateway-token', secret)).toBeGreaterThanOrEqual(8);
    const xml = readFileSync(junit, 'utf8');
    for (const text of [result.output, xml]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(secret);
    }
  });

  it('stops at once with exit 2 and one line when the base URL lacks /v1', async () => {
    const server = await deployment();
    const origin = server.baseUrl.replace(/\/v1$/, '');
    const result = await runRunner('dredd', ['--base-url', origin, '--token', token]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/pets answered 404: .* is not the API's base URL \(the base URL must include the version segment, e\.g\. \/v1\)\n$/,
    );
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

  it('prints its version', async () => {
    const result = await runRunner('dredd', ['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^petstore-contract \(Dredd runner\) \d+\.\d+\.\d+\n$/);
  });
});

it('keeps its temporary plan out of the working directory', () => {
  expect(existsSync(join(process.cwd(), 'plan.json'))).toBe(false);
});
