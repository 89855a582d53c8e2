import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Mock } from '../../src/create-mock.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { createNodeListener } from '../../src/node/node-listener.js';
import { parseContractOptions } from '../../src/contract/contract-options.js';
import { packageRoot } from '../../src/package-root.js';
import { installInto, npmEnv, packTarball } from '../support/packed-package.js';
import { startServer, type RunningServer } from '../support/start-server.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

interface Workflow {
  on: { schedule?: Array<{ cron: string }> } & Record<string, unknown>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}

/** The GitHub Actions workflow in docs/contract-testing.md, exactly as the page shows it. */
function documentedWorkflow(): Workflow {
  const page = readFileSync(join(packageRoot, 'docs/contract-testing.md'), 'utf8');
  const section = page.slice(page.indexOf('## A GitHub Actions job'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/contract-testing.md has no yaml block in its Actions section');
  return parse(block) as Workflow;
}

/** The command the page's "A deeper run at night" shows, its lines joined. */
function documentedNightlyCommand(): string {
  const page = readFileSync(join(packageRoot, 'docs/contract-testing.md'), 'utf8');
  const section = page.slice(page.indexOf('## A deeper run at night'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/contract-testing.md has no sh block in its nightly section');
  return block.replace(/\\\n\s*/g, '').trim();
}

/** A step's environment, with the workflow's `${{ vars.X }}` and `${{ secrets.Y }}` given the values CI would have. */
function environmentOf(step: Step, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{\{\s*(?:vars|secrets)\.(\w+)\s*\}\}/g, (_whole, key: string) => {
        const given = values[key];
        if (given === undefined) throw new Error(`the job reads ${key}, which the test does not set`);
        return given;
      }),
    ]),
  );
}

/** Runs one `run:` step with `sh`, as the Actions runner does; its exit code and output. */
async function runStep(step: Step, cwd: string, env: Record<string, string>) {
  const clean = npmEnv();
  for (const name of Object.keys(clean))
    if (name.startsWith('VITEST') || name.startsWith('CONTRACT_') || name === 'NODE_OPTIONS') delete clean[name];
  return promisify(execFile)('sh', ['-e', '-c', step.run as string], {
    cwd,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 240_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

describe('the GitHub Actions job of docs/contract-testing.md, its run steps with sh', { timeout: 300_000 }, () => {
  let root: string;
  let mock: Mock;
  let server: RunningServer;
  let values: Record<string, string>;
  const workflow = documentedWorkflow();
  const jobs = workflow.jobs;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'petstore-actions-'));
    mock = createNodeMock({});
    server = await startServer(createNodeListener(mock));
    values = { STAGING_BASE_URL: server.baseUrl, STAGING_API_KEY: 'dev-key' };
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('has the jobs the page describes: the suite from a project, Dredd from a checkout of the kit, and a nightly run', () => {
    expect(Object.keys(jobs)).toEqual(['contract', 'dredd', 'nightly']);
    const runs = (job: string) => jobs[job]?.steps.flatMap((step) => (step.run ? [step.run] : [])) ?? [];
    expect(runs('contract')).toEqual([
      'npm ci',
      'npx petstore-kit contract --junit reports/contract.xml --json reports/contract.json',
    ]);
    expect(runs('dredd')).toEqual(['npm ci', 'npm run contract:dredd -- --junit reports/dredd.xml']);
    // No step makes reports/: the runners do.
    expect([...runs('contract'), ...runs('dredd')].join('\n')).not.toContain('mkdir');
  });

  it('runs the nightly job on a schedule only, spreading the suite over time with --duration', () => {
    // Issue 36: a deployment that drops pets 3 s after their creation passes a default run and fails with
    // --duration 10, as documented; the CI recipe gives the nightly run that time.
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    const nightly = jobs.nightly;
    expect(nightly?.if).toBe("${{ github.event_name == 'schedule' }}");
    const runs = nightly?.steps.flatMap((step) => (step.run ? [step.run.trim()] : [])) ?? [];
    expect(runs).toEqual(['npm ci', documentedNightlyCommand()]);
    const command = runs[1] as string;
    expect(command).toMatch(/ --duration [1-9]\d* /);
    // The flags are ones the suite takes (the seed of the day as the shell would expand it).
    const argv = command.replace('"$(date +%Y%m%d)"', '20301206').split(/\s+/).slice(3);
    expect(
      parseContractOptions(argv, { CONTRACT_BASE_URL: 'https://staging.example/v1', CONTRACT_TOKEN: 'k' }),
    ).toMatchObject({
      durationMs: 120_000,
    });
  });

  it('runs the contract job from a project with the packed kit installed: reports written, exit 0', async () => {
    // The project as the job's checkout gives it: petstore-kit in its devDependencies and a lockfile, no reports/,
    // no node_modules (the lockfile alone is written: the job's `npm ci` is the one install).
    const project = installInto(root, 'project', ['--save-dev', '--package-lock-only', packTarball(root)]).dir;
    expect(existsSync(join(project, 'node_modules'))).toBe(false);
    for (const step of jobs.contract?.steps ?? []) {
      if (!step.run) continue;
      const result = await runStep(step, project, environmentOf(step, values));
      expect(result.code, `${step.run}\n${result.output}`).toBe(0);
    }
    expect(readFileSync(join(project, 'reports/contract.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);
    expect(JSON.parse(readFileSync(join(project, 'reports/contract.json'), 'utf8'))).toMatchObject({
      totals: { failed: 0 },
    });
    // The report holds no key.
    expect(readFileSync(join(project, 'reports/contract.json'), 'utf8')).not.toContain('Bearer dev-key');
  });

  it('runs the Dredd job from a checkout of the kit: report written, exit 0', async () => {
    // The checkout: this one's files, linked into a folder of its own so that reports/ is written there. Its
    // `npm ci` is the one this test run was started after (running it here would replace the checkout's own
    // node_modules under the tests that use it), so that step is the one not run again.
    const checkout = join(root, 'checkout');
    mkdirSync(checkout);
    for (const name of ['package.json', 'package-lock.json', 'node_modules', 'dist', 'src', 'scripts', 'contracts']) {
      symlinkSync(join(packageRoot, name), join(checkout, name));
    }
    for (const name of ['openapi.yaml', 'tsconfig.json', 'tsconfig.build.json', 'fixtures']) {
      if (existsSync(join(packageRoot, name))) symlinkSync(join(packageRoot, name), join(checkout, name));
    }
    const steps = (jobs.dredd?.steps ?? []).filter((step) => step.run && step.run !== 'npm ci');
    expect(steps).toHaveLength(1);
    for (const step of steps) {
      const result = await runStep(step, checkout, environmentOf(step, values));
      expect(result.code, `${step.run}\n${result.output}`).toBe(0);
    }
    const xml = readFileSync(join(checkout, 'reports/dredd.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="Dredd Tests" tests="[1-9]\d*" failures="0" errors="0"/);
    expect(existsSync(join(packageRoot, 'reports/dredd.xml'))).toBe(false);
  });
});
