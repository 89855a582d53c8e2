import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export type CheckState = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  operationId: string;
  /** The check's name below its operation, e.g. `authentication > answers 401 ...`. */
  name: string;
  state: CheckState;
  durationMs: number;
  errors: string[];
}

/** What the reporter saw for one deployment: every check, and any error outside a check (a file that failed to load, say). */
export interface ContractResults {
  checks: CheckResult[];
  runErrors: string[];
}

/** Where one deployment's lines go, and how they are redacted. */
export interface ReporterTarget {
  /** The label its checks sit under, or '' when the run checks one deployment. */
  label: string;
  print(line: string): void;
  redact(text: string): string;
}

function pathOf(testCase: TestCase): string[] {
  const names: string[] = [testCase.name];
  let parent = testCase.parent;
  while (parent.type === 'suite') {
    names.unshift(parent.name);
    parent = parent.parent;
  }
  return names;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/**
 * A vitest reporter for the contract checks: one line per check as it finishes,
 * failures with their messages, everything passed through the deployment's
 * `redact`. With several deployments, each check goes to the deployment whose
 * label heads its path (the label itself is not shown).
 */
export class ContractReporter implements Reporter {
  readonly results: ContractResults[];

  constructor(private readonly targets: readonly ReporterTarget[]) {
    this.results = targets.map(() => ({ checks: [], runErrors: [] }));
  }

  onTestCaseResult(testCase: TestCase): void {
    let path = pathOf(testCase);
    let index = 0;
    if (this.targets.length > 1) {
      index = this.targets.findIndex((target) => target.label === path[0]);
      if (index === -1) return;
      path = path.slice(1);
    }
    const target = this.targets[index];
    const results = this.results[index];
    if (!target || !results) return;
    const [operationId = '(none)', ...rest] = path;
    const result = testCase.result();
    const state: CheckState = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
    const errors = (result.errors ?? []).map((error) => target.redact(error.message ?? String(error)));
    const durationMs = Math.round(testCase.diagnostic()?.duration ?? 0);
    results.checks.push({ operationId, name: rest.join(' > '), state, durationMs, errors });
    const mark = state === 'passed' ? '✓' : state === 'failed' ? '✗' : '-';
    const suffix = state === 'skipped' ? ' (skipped)' : ` (${durationMs} ms)`;
    target.print(`  ${mark} ${operationId} › ${rest.join(' › ')}${suffix}`);
    for (const error of errors) for (const line of error.split('\n')) target.print(`      ${line}`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const messages: string[] = [];
    for (const module of testModules) {
      for (const error of module.errors())
        messages.push(`${module.moduleId}: ${firstLine(error.message ?? String(error))}`);
    }
    for (const error of unhandledErrors) messages.push(firstLine(error.message ?? String(error)));
    this.targets.forEach((target, index) => {
      this.results[index]?.runErrors.push(...messages.map((message) => target.redact(message)));
    });
  }
}
