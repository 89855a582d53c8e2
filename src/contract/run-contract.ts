import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageRoot } from '../package-root.js';
import { type CheckResult, ContractReporter } from './contract-reporter.js';
import type { ContractOptions } from './contract-options.js';
import { type ContractRecord, type ContractSettings, namePrefixBase } from './contract-settings.js';
import { probeTarget } from './http-client.js';
import { createRedactor } from './redact.js';

export interface RunOutput {
  out(line: string): void;
  err(line: string): void;
}

/** The seed of the generated request bodies: fixed, so a failure can be replayed. */
export const defaultSeed = 20301205;

export const contractsDir = join(packageRoot, 'contracts');

function junitReporter(outputFile: string): ['junit', { outputFile: string; suiteName: string }] {
  return ['junit', { outputFile, suiteName: 'petstore-contract' }];
}

function readRecords(file: string): ContractRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ContractRecord);
}

function groupByOperation(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const check of checks) groups.set(check.operationId, [...(groups.get(check.operationId) ?? []), check]);
  return groups;
}

/** The end of the output: counts by operation, warnings, what could not be proven, observations, created pets. */
function printSummary(
  out: (line: string) => void,
  checks: readonly CheckResult[],
  records: readonly ContractRecord[],
  namePrefix: string,
  createdIds: readonly number[],
): void {
  out('');
  out('Summary by operation:');
  for (const [operationId, group] of groupByOperation(checks)) {
    const count = (state: string): number => group.filter((c) => c.state === state).length;
    const parts = [`${count('passed')} passed`, `${count('failed')} failed`];
    if (count('skipped') > 0) parts.push(`${count('skipped')} skipped`);
    out(`  ${operationId.padEnd(12)} ${parts.join(', ')}`);
    for (const check of group.filter((c) => c.state === 'failed')) {
      out(`    ✗ ${check.name}: ${check.errors[0]?.split('\n')[0] ?? 'failed'}`);
    }
  }
  const section = (title: string, kind: ContractRecord['kind']): void => {
    const lines = records.filter((r) => r.kind === kind);
    if (lines.length === 0) return;
    out('');
    out(title);
    for (const r of lines) out(`  ${r.operationId}: ${r.message}`);
  };
  section('Warnings (not failures):', 'warning');
  section('Not provable with the data present (not failures):', 'unproven');
  section('Observed, not specified (never a failure):', 'observed');
  out('');
  out(
    createdIds.length === 0
      ? 'Created pets: none'
      : `Created pets (name prefix '${namePrefix}'): ${createdIds.join(', ')}`,
  );
}

/**
 * Runs the vitest checks in `contracts/` against a deployment. Returns the exit
 * code: 0 all passed, 1 a check failed, 2 the target cannot be reached or the run
 * could not start. Every line it prints and every file it writes is redacted.
 */
export async function runContract(options: ContractOptions, output: RunOutput): Promise<number> {
  const redact = createRedactor(options.token);
  const out = (line: string): void => output.out(redact(line));
  const err = (line: string): void => output.err(redact(line));
  const started = performance.now();

  const unreachable = await probeTarget(options);
  if (unreachable) {
    err(`error: ${unreachable}`);
    return 2;
  }
  if (!existsSync(contractsDir)) {
    err(`error: the contract checks are missing: ${contractsDir} does not exist`);
    return 2;
  }

  const workDir = mkdtempSync(join(tmpdir(), 'petstore-contract-'));
  const runId = randomBytes(3).toString('hex');
  const settings: ContractSettings = {
    baseUrl: options.baseUrl,
    token: options.token,
    readOnly: options.readOnly,
    timeoutMs: options.timeoutMs,
    recordFile: join(workDir, 'records.jsonl'),
    namePrefix: `${namePrefixBase}${runId}-`,
    seed: defaultSeed,
  };
  const junitFile = options.junitFile ? resolve(options.junitFile) : undefined;
  const reporter = new ContractReporter(out, redact);

  out(`petstore-contract: checking ${options.baseUrl}${options.readOnly ? ' (read-only)' : ''}`);
  try {
    const { startVitest } = await import('vitest/node');
    const vitest = await startVitest(
      'test',
      [],
      {
        config: false,
        root: packageRoot,
        dir: contractsDir,
        include: ['**/*.contract.ts'],
        // When the kit is installed as a package, the checks live under node_modules: neither exclude
        // them (vitest's default) nor leave their TypeScript imports to Node (which cannot load it).
        exclude: [],
        server: { deps: { inline: [/petstore-kit/, packageRoot] } },
        watch: false,
        reporters: junitFile ? [reporter, junitReporter(junitFile)] : [reporter],
        fileParallelism: false,
        isolate: false,
        maxWorkers: 1,
        testTimeout: options.timeoutMs * 60 + 10_000,
        hookTimeout: options.timeoutMs * 5 + 10_000,
        provide: { contract: settings },
        passWithNoTests: false,
      },
      { cacheDir: join(workDir, 'vite'), logLevel: 'silent', clearScreen: false },
    );
    await vitest.close();
  } catch (error) {
    err(`error: the contract checks could not run: ${(error as Error).message.split('\n')[0]}`);
    rmSync(workDir, { recursive: true, force: true });
    return 2;
  }

  const { checks, runErrors } = reporter.results;
  const records = readRecords(settings.recordFile);
  rmSync(workDir, { recursive: true, force: true });
  const failed = checks.filter((c) => c.state === 'failed').length;
  const passed = checks.filter((c) => c.state === 'passed').length;
  const skipped = checks.filter((c) => c.state === 'skipped').length;
  const durationMs = Math.round(performance.now() - started);

  const createdIds = records.filter((r) => r.kind === 'created' && r.id !== undefined).map((r) => r.id as number);
  printSummary(out, checks, records, settings.namePrefix, createdIds);
  for (const error of runErrors) err(`error: ${error}`);
  if (checks.length === 0 && runErrors.length === 0) err('error: no contract check ran');
  out('');
  out(`${passed} passed, ${failed} failed, ${skipped} skipped in ${(durationMs / 1000).toFixed(1)} s`);

  if (junitFile && existsSync(junitFile)) writeFileSync(junitFile, redact(readFileSync(junitFile, 'utf8')));
  if (options.jsonFile) {
    const report = {
      baseUrl: options.baseUrl,
      readOnly: options.readOnly,
      namePrefix: settings.namePrefix,
      seed: settings.seed,
      durationMs,
      totals: { passed, failed, skipped },
      operations: Object.fromEntries(groupByOperation(checks)),
      runErrors,
      warnings: records.filter((r) => r.kind === 'warning'),
      unproven: records.filter((r) => r.kind === 'unproven'),
      observed: records.filter((r) => r.kind === 'observed'),
      createdPetIds: createdIds,
    };
    writeFileSync(resolve(options.jsonFile), redact(`${JSON.stringify(report, null, 2)}\n`));
  }
  if (checks.length === 0) return 2;
  return failed > 0 || runErrors.length > 0 ? 1 : 0;
}
