import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'lossless-json';
import { toInt64 } from '../core/json/exact-json.js';
import { loadDocument } from '../node/load-document.js';
import { defaultDocumentPath, packageRoot } from '../package-root.js';
import { type CheckResult, ContractReporter, type ContractResults } from './contract-reporter.js';
import type { ContractOptions } from './contract-options.js';
import { type ContractRecord, type ContractSettings, namePrefixBase, type NoteRecord } from './contract-settings.js';
import { type Coverage, computeCoverage, coverageLines } from './coverage.js';
import { probeTarget } from './http-client.js';
import { createRedactor, describeHeaders, secretsOf, shortSecretLength } from './redact.js';

export interface RunOutput {
  out(line: string): void;
  err(line: string): void;
}

/** One deployment to check, and where its lines go. */
export interface ContractTarget {
  options: ContractOptions;
  output: RunOutput;
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

/** The end of the output: counts by operation, warnings, what could not be proven, observations, coverage, created pets. */
function printSummary(
  out: (line: string) => void,
  checks: readonly CheckResult[],
  notes: readonly NoteRecord[],
  coverage: Coverage,
  namePrefix: string,
  createdIds: readonly string[],
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
  const section = (title: string, kind: NoteRecord['kind']): void => {
    const lines = notes.filter((r) => r.kind === kind);
    if (lines.length === 0) return;
    out('');
    out(title);
    for (const r of lines) out(`  ${r.operationId}: ${r.message}`);
  };
  section('Warnings (not failures):', 'warning');
  section('Not provable with the data present (not failures):', 'unproven');
  section('Observed, not specified (never a failure):', 'observed');
  out('');
  for (const line of coverageLines(coverage)) out(line);
  out('');
  out(
    createdIds.length === 0
      ? 'Created pets: none'
      : `Created pets (name prefix '${namePrefix}'): ${createdIds.join(', ')}`,
  );
}

/** A target's redacting output, and the warnings it gets before any request. */
function prepare(target: ContractTarget) {
  const { options, output } = target;
  const redact = createRedactor(secretsOf(options.token, options.headers));
  const out = (line: string): void => output.out(redact(line));
  const err = (line: string): void => output.err(redact(line));
  if (options.token.length < shortSecretLength) {
    err(
      `warning: the API key is shorter than ${shortSecretLength} characters, so output hides it only where it stands as a credential (after Bearer or Basic, after key= or as a quoted value); a longer key is safer`,
    );
  }
  return { options, redact, out, err };
}

/**
 * Runs the vitest checks in `contracts/` against a deployment. Returns the exit
 * code: 0 all passed, 1 a check failed, 2 the target cannot be reached, is not
 * the API's base URL, refuses the key, or the run could not start. Every line it
 * prints and every file it writes is redacted.
 */
export async function runContract(options: ContractOptions, output: RunOutput): Promise<number> {
  const [code = 2] = await runContractBatch([{ options, output }]);
  return code;
}

/**
 * Checks several deployments in one vitest run (the self-test's catalogue
 * uses it: one start instead of one per deployment). Each deployment gets the
 * same checks, output, summary, report and exit code as `runContract` would
 * give it, on its own output; JUnit reports need a run of their own.
 */
export async function runContractBatch(targets: readonly ContractTarget[]): Promise<number[]> {
  const started = performance.now();
  const codes = targets.map(() => 2);
  const prepared = targets.map(prepare);
  if (targets.length > 1 && targets.some((t) => t.options.junitFile !== undefined)) {
    throw new Error('a JUnit report needs a run of its own: check that deployment alone');
  }

  const runnable: number[] = [];
  await Promise.all(
    prepared.map(async (target, index) => {
      const unreachable = await probeTarget(target.options);
      if (unreachable) target.err(`error: ${unreachable}`);
      else runnable.push(index);
    }),
  );
  runnable.sort((a, b) => a - b);
  if (runnable.length === 0) return codes;
  if (!existsSync(contractsDir)) {
    for (const index of runnable)
      prepared[index]?.err(`error: the contract checks are missing: ${contractsDir} does not exist`);
    return codes;
  }

  const workDir = mkdtempSync(join(tmpdir(), 'petstore-contract-'));
  const settings: ContractSettings[] = runnable.map((index, position) => {
    const { options } = prepared[index] as (typeof prepared)[number];
    return {
      label: runnable.length === 1 ? '' : `deployment ${position + 1}`,
      baseUrl: options.baseUrl,
      token: options.token,
      readOnly: options.readOnly,
      timeoutMs: options.timeoutMs,
      headers: options.headers,
      recordFile: join(workDir, `records-${position + 1}.jsonl`),
      namePrefix: `${namePrefixBase}${randomBytes(3).toString('hex')}-`,
      seed: defaultSeed,
    };
  });
  const first = prepared[runnable[0] ?? 0];
  const junitFile = runnable.length === 1 && first?.options.junitFile ? resolve(first.options.junitFile) : undefined;
  const reporter = new ContractReporter(
    runnable.map((index, position) => ({
      label: settings[position]?.label ?? '',
      print: prepared[index]?.out ?? (() => undefined),
      redact: prepared[index]?.redact ?? ((text: string) => text),
    })),
  );
  for (const index of runnable) {
    const { options, out } = prepared[index] as (typeof prepared)[number];
    const extra =
      Object.keys(options.headers).length > 0 ? ` with extra headers ${describeHeaders(options.headers)}` : '';
    out(`petstore-contract: checking ${options.baseUrl}${options.readOnly ? ' (read-only)' : ''}${extra}`);
  }

  const slowest = Math.max(...runnable.map((index) => prepared[index]?.options.timeoutMs ?? 0));
  // vitest sets the process's exit code when a check fails; the verdict is ours to give.
  const exitCode = process.exitCode;
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
        testTimeout: slowest * 80 + 10_000,
        hookTimeout: slowest * 5 + 10_000,
        provide: { contract: settings },
        passWithNoTests: false,
      },
      { cacheDir: join(workDir, 'vite'), logLevel: 'silent', clearScreen: false },
    );
    await vitest.close();
    process.exitCode = exitCode;
  } catch (error) {
    process.exitCode = exitCode;
    for (const index of runnable) {
      prepared[index]?.err(`error: the contract checks could not run: ${(error as Error).message.split('\n')[0]}`);
    }
    rmSync(workDir, { recursive: true, force: true });
    return codes;
  }

  const document = loadDocument(defaultDocumentPath);
  runnable.forEach((index, position) => {
    const target = prepared[index] as (typeof prepared)[number];
    const setting = settings[position] as ContractSettings;
    const results = reporter.results[position] as ContractResults;
    codes[index] = finish(target, setting, results, document, started, junitFile);
  });
  rmSync(workDir, { recursive: true, force: true });
  return codes;
}

/** Prints one deployment's summary, writes its reports, and gives its exit code. */
function finish(
  target: ReturnType<typeof prepare>,
  settings: ContractSettings,
  { checks, runErrors }: ContractResults,
  document: ReturnType<typeof loadDocument>,
  started: number,
  junitFile: string | undefined,
): number {
  const { options, out, err, redact } = target;
  const records = readRecords(settings.recordFile);
  const notes = records.filter(
    (r): r is NoteRecord => r.kind === 'observed' || r.kind === 'warning' || r.kind === 'unproven',
  );
  const createdIds = records.flatMap((r) => (r.kind === 'created' ? [r.id] : []));
  const coverage = computeCoverage(
    document,
    records.flatMap((r) => (r.kind === 'response' ? [r] : [])),
  );
  const failed = checks.filter((c) => c.state === 'failed').length;
  const passed = checks.filter((c) => c.state === 'passed').length;
  const skipped = checks.filter((c) => c.state === 'skipped').length;
  const durationMs = Math.round(performance.now() - started);

  printSummary(out, checks, notes, coverage, settings.namePrefix, createdIds);
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
      warnings: notes.filter((r) => r.kind === 'warning'),
      unproven: notes.filter((r) => r.kind === 'unproven'),
      observed: notes.filter((r) => r.kind === 'observed'),
      coverage,
      // Exact: ids beyond 2^53 are written as the deployment wrote them (read them with a lossless parser).
      createdPetIds: createdIds.map((id) => toInt64(id) ?? id),
    };
    writeFileSync(resolve(options.jsonFile), redact(`${stringify(report, null, 2) ?? '{}'}\n`));
  }
  if (checks.length === 0) return 2;
  return failed > 0 || runErrors.length > 0 ? 1 : 0;
}
