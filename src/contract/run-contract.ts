import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compileDocument, type CompiledDocument } from '../core/openapi/compile-document.js';
import { loadDocument } from '../node/load-document.js';
import { defaultDocumentPath } from '../package-root.js';
import { type CheckResult, runChecks } from './check-runner.js';
import type { ContractOptions } from './contract-options.js';
import {
  type ContractOutcome,
  jsonReport,
  junitForRunError,
  junitReport,
  summaryLines,
  totals,
} from './contract-report.js';
import { createContractSession } from './contract-session.js';
import { type ContractSettings, defaultPatience, namePrefixBase } from './contract-settings.js';
import { contractSuite } from './contract-suite.js';
import { computeCoverage } from './coverage.js';
import { explorationReportOf } from './explore/exploration-check.js';
import type { ExplorationOptions } from './explore/explore-deployment.js';
import { idText } from './exact-ids.js';
import { createHttpClient, probeTarget } from './http-client.js';
import { prepareOutputFiles } from './output-files.js';
import { createRedactor } from '../core/http/redact-credentials.js';
import { describeHeaders, secretsOf, shortKeyWarning } from './run-secrets.js';
import { createdWords, probePath } from './support/document-facts.js';

export interface RunOutput {
  out(line: string): void;
  err(line: string): void;
}

/** One deployment to check, and where its lines go. */
export interface ContractTarget {
  options: ContractOptions;
  output: RunOutput;
  /** How the stateful exploration keeps its time bounds (a self-test holds their clock still). Default: the machine's clock. */
  exploration?: ExplorationOptions;
}

/** The seed of the generated request bodies: fixed, so a failure can be replayed. */
export const defaultSeed = 20301205;

/** The documents runs of this process check against, compiled once each (a batch shares them). */
const compiledDocuments = new Map<string, CompiledDocument>();

/** The document a run checks against: `--document`, or the kit's openapi.yaml. */
export function documentOf(options: Pick<ContractOptions, 'document'>): CompiledDocument {
  const path = resolve(options.document ?? defaultDocumentPath);
  let compiled = compiledDocuments.get(path);
  if (!compiled) {
    compiled = compileDocument(loadDocument(path), options.document === undefined ? 'openapi.yaml' : path);
    compiledDocuments.set(path, compiled);
  }
  return compiled;
}

/** A target's redacting output, and the warnings it gets before any request. */
function prepare(target: ContractTarget) {
  const { options, output, exploration } = target;
  const redact = createRedactor(secretsOf(options.token, options.headers));
  const out = (line: string): void => output.out(redact(line));
  const err = (line: string): void => output.err(redact(line));
  const warning = shortKeyWarning(options.token);
  if (warning) err(warning);
  return { options, redact, out, err, exploration };
}

function settingsOf(options: ContractOptions): ContractSettings {
  return {
    baseUrl: options.baseUrl,
    token: options.token,
    readOnly: options.readOnly,
    strict: options.strict,
    timeoutMs: options.timeoutMs,
    headers: options.headers,
    namePrefix: `${namePrefixBase}${randomBytes(3).toString('hex')}-`,
    seed: options.seed ?? defaultSeed,
    settleMs: options.settleMs,
    now: options.now,
    budget: options.budget,
    concurrency: options.concurrency,
    durationMs: options.durationMs,
    patience: defaultPatience,
  };
}

/** `  ✓ listPets › returns at most 1 pet for limit=1 (3 ms)`, then the reasons it failed. */
function resultLines(result: CheckResult): string[] {
  const mark = result.state === 'passed' ? '✓' : result.state === 'failed' ? '✗' : '-';
  const suffix = result.state === 'skipped' ? ' (skipped)' : ` (${result.durationMs} ms)`;
  const lines = [`  ${mark} ${result.operationId} › ${result.name}${suffix}`];
  for (const error of result.errors) for (const line of error.split('\n')) lines.push(`      ${line}`);
  return lines;
}

/**
 * Runs the contract suite against a deployment. Returns the exit code: 0
 * nothing failed (warnings and observations are reported, not failures,
 * unless `--strict`), 1 a check failed, 2 the target cannot be reached, is
 * not the API's base URL, refuses the key, or the run could not start. Every
 * line it prints and every file it writes is redacted.
 */
export async function runContract(options: ContractOptions, output: RunOutput): Promise<number> {
  const [code = 2] = await runContractBatch([{ options, output }]);
  return code;
}

/**
 * Checks several deployments side by side in one process (the self-test's
 * catalogue uses it). Each deployment gets the checks, output, summary,
 * reports and exit code `runContract` would give it, on its own output; each
 * is sent one request at a time, but for the groups its `--concurrency` allows.
 */
export async function runContractBatch(
  targets: readonly ContractTarget[],
  { concurrency = 6 }: { concurrency?: number } = {},
): Promise<number[]> {
  const codes: number[] = targets.map(() => 2);
  let next = 0;
  // A few deployments at a time, so that a batch does not load what it checks (nor time out its own probes).
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const index = next++;
      const target = prepare(targets[index] as ContractTarget);
      let compiled: CompiledDocument;
      try {
        compiled = documentOf(target.options);
      } catch (error) {
        target.err(`error: ${((error as Error).message ?? String(error)).split('\n')[0]}`);
        continue;
      }
      codes[index] = await checkOne(compiled, target);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return codes;
}

async function checkOne(compiled: CompiledDocument, target: ReturnType<typeof prepare>): Promise<number> {
  const started = performance.now();
  const { options, out, err, redact, exploration } = target;
  // The reports' folders are made before any request (a missing reports/ is created), or the run refuses to start:
  // a verdict that cannot be written is not worth the deployment's time.
  const unwritable = prepareOutputFiles([
    { flag: '--junit', file: options.junitFile },
    { flag: '--json', file: options.jsonFile },
  ]);
  if (unwritable) {
    err(`error: ${unwritable}`);
    if (options.junitFile && !unwritable.startsWith('--junit')) {
      writeFileSync(resolve(options.junitFile), redact(junitForRunError(unwritable)));
    }
    return 2;
  }
  const unreachable = await probeTarget(options, probePath(compiled));
  if (unreachable) {
    err(`error: ${unreachable}`);
    if (options.junitFile) writeFileSync(resolve(options.junitFile), redact(junitForRunError(unreachable)));
    return 2;
  }
  const settings = settingsOf(options);
  const extra =
    Object.keys(options.headers).length > 0 ? ` with extra headers ${describeHeaders(options.headers)}` : '';
  const against = options.document === undefined ? '' : ` against ${compiled.source}`;
  const clock = options.now === undefined ? '' : ` as of ${new Date(options.now).toISOString()}`;
  out(
    `petstore-contract: checking ${options.baseUrl}${options.readOnly ? ' (read-only)' : ''}${against}${clock}${extra}`,
  );

  const api = createContractSession({ settings, compiled, send: createHttpClient(options), redact });
  const runErrors: string[] = [];
  let results: CheckResult[] = [];
  try {
    results = await runChecks(api, contractSuite(api, exploration), {
      readOnly: settings.readOnly,
      strict: settings.strict,
      // A check sends at most a few dozen requests, each within the timeout, and may wait out a settle window.
      timeoutMs: settings.timeoutMs * 80 + settings.settleMs * 2 + settings.patience.totalMs + 10_000,
      onResult: (result) => resultLines(result).forEach(out),
    });
  } catch (error) {
    runErrors.push(redact((error as Error).message.split('\n')[0] ?? 'the checks could not run'));
  }
  const outcome: ContractOutcome = {
    settings,
    results,
    coverage: computeCoverage(compiled.document, api.responses),
    createdIds: api.createdIds.map(idText),
    created: createdWords(compiled),
    durationMs: Math.round(performance.now() - started),
    exploration: explorationReportOf(api),
  };
  for (const line of summaryLines(outcome)) out(line);
  for (const error of runErrors) err(`error: ${error}`);
  const { passed, failed, skipped } = totals(results);
  const warned = results.reduce((count, result) => count + result.findings.filter((f) => f.level === 'warn').length, 0);
  out('');
  out(
    `${passed} passed, ${failed} failed, ${skipped} skipped in ${(outcome.durationMs / 1000).toFixed(1)} s${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}`,
  );
  if (options.jsonFile) writeFileSync(resolve(options.jsonFile), redact(jsonReport(outcome, runErrors)));
  if (options.junitFile) writeFileSync(resolve(options.junitFile), redact(junitReport(outcome)));
  if (results.length === 0) {
    err('error: no contract check ran');
    return 2;
  }
  return failed > 0 || runErrors.length > 0 ? 1 : 0;
}
