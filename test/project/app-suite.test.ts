import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { installInto, npmEnv, packTarball, spawnSyncText, tscIn } from '../support/packed-package.js';

/**
 * A frontend team's app and its suite (test/frontend/app: an openapi-fetch
 * client typed by the kit's `paths`, a component that lists and creates
 * pets, one test's own 500 both through `server.use` and the mock's typed
 * fault, the documented reset), in a folder of its own with the packed
 * tarball installed beside msw, openapi-fetch, vitest, jsdom and happy-dom,
 * as a team installs them. It runs under each of vitest's environments in a
 * shuffled order, and compiles under `strict` with `skipLibCheck: false`.
 */
let root: string;
let app: string;

/** vitest's JSON report, what of it the checks read. */
interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

/** Runs the app's suite with vitest under `environment`, shuffled; its report and output. */
function runSuite(environment: string, env: Record<string, string> = {}): { report: VitestReport; output: string } {
  const reportFile = join(app, `report-${environment}-${Object.keys(env).join('-') || 'plain'}.json`);
  const vitest = join(app, 'node_modules/vitest/vitest.mjs');
  const args = ['run', '--environment', environment, '--sequence.shuffle', '--reporter=json'];
  const result = spawnSyncText(process.execPath, [vitest, ...args, `--outputFile=${reportFile}`], app, {
    ...cleanEnv(),
    EXPECTED_ENVIRONMENT: environment,
    ...env,
  });
  return { report: JSON.parse(readFileSync(reportFile, 'utf8')) as VitestReport, output: result.output };
}

/** This environment without vitest's own variables, which would make the child vitest think it is a worker. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = npmEnv();
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'NODE_OPTIONS') delete env[name];
  return env;
}

const failures = (report: VitestReport) =>
  report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status !== 'passed')
      .map((test) => `${test.title}: ${test.failureMessages.join('\n').split('\n')[0]}`),
  );

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'petstore-app-'));
  const tarball = packTarball(root);
  // What a team installs for this app: the kit and msw (`npm i -D petstore-kit msw`), its client, its test tools.
  app = installInto(root, 'app', [
    tarball,
    'msw@2',
    'openapi-fetch@^0.17',
    'vitest@^4.1',
    'jsdom@^29',
    'happy-dom@^21',
  ]).dir;
  cpSync(join(packageRoot, 'test/frontend/app'), app, { recursive: true });
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a frontend app’s suite, from the packed tarball', () => {
  it.each(['node', 'jsdom', 'happy-dom'])(
    'passes whole under vitest’s %s environment, in a shuffled order',
    (environment) => {
      const { report, output } = runSuite(environment);
      expect(failures(report), output).toEqual([]);
      expect(report.numFailedTests).toBe(0);
      expect(report.numPassedTests).toBe(report.numTotalTests);
      expect(report.numTotalTests).toBe(11);
    },
    120_000,
  );

  it('would catch a suite that does not reset the mock: tests then see each other’s pets and faults', () => {
    // Run several times shuffled: in some order a test that changes the mock comes before one that reads it.
    const seen = new Set<string>();
    for (let run = 0; run < 3 && seen.size === 0; run++) {
      for (const failed of failures(runSuite('happy-dom', { SKIP_RESET: '1' }).report)) seen.add(failed);
    }
    expect([...seen].length).toBeGreaterThan(0);
  }, 120_000);

  it('compiles, app and tests, under strict with skipLibCheck false', () => {
    expect(tscIn(app, ['-p', 'tsconfig.json'])).toBe('');
  }, 120_000);

  it('would catch a call the API does not have: the client is typed by the kit’s paths', () => {
    writeFileSync(
      join(app, 'src/wrong-call.ts'),
      [
        "import { createPetClient } from './pet-client.js';",
        "const client = createPetClient('https://api.example.test/v1', 'dev-key');",
        "export const wrongPath = client.GET('/animals');",
        "export const wrongBody = client.POST('/pets', { body: { name: 'Rex' } });",
        "export const wrongQuery = client.GET('/pets', { params: { query: { status: 'lost' } } });",
        '',
      ].join('\n'),
    );
    try {
      const report = tscIn(app, ['-p', 'tsconfig.json']);
      expect(report).toContain('src/wrong-call.ts(3,');
      expect(report).toContain('src/wrong-call.ts(4,');
      expect(report).toContain('src/wrong-call.ts(5,');
    } finally {
      rmSync(join(app, 'src/wrong-call.ts'));
    }
  }, 120_000);
});
