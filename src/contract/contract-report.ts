import { stringify } from 'lossless-json';
import { toInt64 } from '../core/json/exact-json.js';
import type { Finding } from '../core/oracle/finding.js';
import { junitXml } from '../node/junit-xml.js';
import type { CheckResult } from './check-runner.js';
import type { ContractSettings } from './contract-settings.js';
import { type Coverage, coverageLines } from './coverage.js';
import { type ExplorationReport, explorationSummaryLines } from './explore/exploration-report.js';

/** What a run against one deployment gave: every check's result, the coverage, the pets it made, the exploration. */
export interface ContractOutcome {
  settings: ContractSettings;
  results: CheckResult[];
  coverage: Coverage;
  createdIds: string[];
  /** What they are, in the document's words (`pets`). */
  created: string;
  durationMs: number;
  /** What the stateful exploration did, if it ran. */
  exploration?: ExplorationReport | undefined;
}

/** A finding as the report keeps it: with the operation and the check it came up in. */
export interface ReportedFinding extends Finding {
  operationId: string;
  check: string;
}

function findingsOf(results: readonly CheckResult[], level: Finding['level']): ReportedFinding[] {
  return results.flatMap((result) =>
    result.findings
      .filter((found) => found.level === level)
      .map((found) => ({ ...found, operationId: result.operationId, check: result.name })),
  );
}

function groupByOperation(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) groups.set(result.operationId, [...(groups.get(result.operationId) ?? []), result]);
  return groups;
}

export function totals(results: readonly CheckResult[]) {
  const count = (state: CheckResult['state']) => results.filter((result) => result.state === state).length;
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

/**
 * Findings as summary lines, one per operation, rule and message: the first
 * exchange it was seen in, and how many more showed the same.
 */
function grouped(found: readonly ReportedFinding[]): string[] {
  const groups = new Map<string, { first: ReportedFinding; count: number }>();
  for (const item of found) {
    const key = `${item.operationId}\u0000${item.rule}\u0000${item.message}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { first: item, count: 1 });
  }
  return [...groups.values()].map(({ first, count }) => {
    const exchange = first.exchange === undefined ? '' : `${first.exchange}: `;
    const more = count > 1 ? `; ${count - 1} more like it` : '';
    return `${first.operationId}: ${exchange}${first.message} (${first.rule}${more})`;
  });
}

/** The end of the output: counts by operation, warnings, what could not be proven, observations, coverage, created pets. */
export function summaryLines(outcome: ContractOutcome): string[] {
  const { results, coverage, createdIds, settings } = outcome;
  const lines = ['', 'Summary by operation:'];
  for (const [operationId, group] of groupByOperation(results)) {
    const { passed, failed, skipped } = totals(group);
    const parts = [`${passed} passed`, `${failed} failed`];
    if (skipped > 0) parts.push(`${skipped} skipped`);
    lines.push(`  ${operationId.padEnd(12)} ${parts.join(', ')}`);
    for (const result of group.filter((r) => r.state === 'failed')) {
      lines.push(`    ✗ ${result.name}: ${result.errors[0]?.split('\n')[0] ?? 'failed'}`);
    }
  }
  const section = (title: string, entries: string[]): void => {
    if (entries.length === 0) return;
    lines.push('', title, ...[...new Set(entries)].map((entry) => `  ${entry}`));
  };
  section(
    `Warnings (not failures${settings.strict ? ' — but --strict makes them fail' : ''}):`,
    grouped(findingsOf(results, 'warn')),
  );
  section(
    'Not provable with the data present (not failures):',
    results.flatMap((result) => result.unproven.map((message) => `${result.operationId}: ${message}`)),
  );
  section('Observed, not specified (never a failure):', grouped(findingsOf(results, 'observed')));
  lines.push(...explorationSummaryLines(outcome.exploration));
  lines.push('', ...coverageLines(coverage), '');
  lines.push(
    createdIds.length === 0
      ? `Created ${outcome.created}: none`
      : `Created ${outcome.created} (name prefix '${settings.namePrefix}'): ${createdIds.join(', ')}`,
  );
  return lines;
}

/** The JSON report: exact, ids beyond 2^53 written as the deployment wrote them (read it with a lossless parser). */
export function jsonReport(outcome: ContractOutcome, runErrors: readonly string[]): string {
  const { settings, results } = outcome;
  const report = {
    baseUrl: settings.baseUrl,
    readOnly: settings.readOnly,
    strict: settings.strict,
    namePrefix: settings.namePrefix,
    seed: settings.seed,
    settleMs: settings.settleMs,
    durationMs: outcome.durationMs,
    totals: totals(results),
    operations: Object.fromEntries(groupByOperation(results)),
    runErrors,
    failures: findingsOf(results, 'fail'),
    warnings: findingsOf(results, 'warn'),
    unproven: results.flatMap((result) =>
      result.unproven.map((message) => ({ operationId: result.operationId, check: result.name, message })),
    ),
    observed: findingsOf(results, 'observed'),
    coverage: outcome.coverage,
    createdPetIds: outcome.createdIds.map((id) => toInt64(id) ?? id),
    ...(outcome.exploration === undefined ? {} : { exploration: outcome.exploration }),
  };
  return `${stringify(report, null, 2) ?? '{}'}\n`;
}

/**
 * JUnit XML: one case per check (class = its operation). A check fails with
 * its failing findings; its warnings and observations are its properties,
 * so a warning shows without failing it.
 */
export function junitReport(outcome: ContractOutcome): string {
  return junitXml('petstore-contract', [
    {
      name: 'petstore-contract',
      cases: outcome.results.map((result) => ({
        classname: result.operationId,
        name: result.name,
        durationMs: result.durationMs,
        skipped: result.state === 'skipped' ? 'read-only mode' : undefined,
        failure:
          result.state === 'failed'
            ? { message: result.errors[0]?.split('\n')[0] ?? 'failed', text: result.errors.join('\n') }
            : undefined,
        properties: [
          ...result.findings
            .filter((found) => result.state !== 'failed' || found.level !== 'fail')
            .map((found) => ({ name: `${found.level} ${found.rule}`, value: found.message })),
          ...result.unproven.map((message) => ({ name: 'unproven', value: message })),
        ],
      })),
    },
  ]);
}

/** A JUnit file for a run that could not check anything (exit 2): one case that errs, saying why. */
export function junitForRunError(reason: string): string {
  return junitXml('petstore-contract', [
    {
      name: 'petstore-contract',
      cases: [
        { classname: 'petstore-contract', name: 'reaches the deployment', error: { message: reason, text: reason } },
      ],
    },
  ]);
}
