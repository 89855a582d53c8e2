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

/** What the reporter saw: every check, and any error outside a check (a file that failed to load, say). */
export interface ContractResults {
  checks: CheckResult[];
  runErrors: string[];
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
 * failures with their messages, everything passed through `redact`.
 */
export class ContractReporter implements Reporter {
  readonly results: ContractResults = { checks: [], runErrors: [] };

  constructor(
    private readonly print: (line: string) => void,
    private readonly redact: (text: string) => string,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const [operationId = '(none)', ...rest] = pathOf(testCase);
    const result = testCase.result();
    const state: CheckState = result.state === 'passed' ? 'passed' : result.state === 'failed' ? 'failed' : 'skipped';
    const errors = (result.errors ?? []).map((error) => this.redact(error.message ?? String(error)));
    const durationMs = Math.round(testCase.diagnostic()?.duration ?? 0);
    this.results.checks.push({ operationId, name: rest.join(' > '), state, durationMs, errors });
    const mark = state === 'passed' ? '✓' : state === 'failed' ? '✗' : '-';
    const suffix = state === 'skipped' ? ' (skipped)' : ` (${durationMs} ms)`;
    this.print(`  ${mark} ${operationId} › ${rest.join(' › ')}${suffix}`);
    for (const error of errors) for (const line of error.split('\n')) this.print(`      ${line}`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const module of testModules) {
      for (const error of module.errors()) {
        this.results.runErrors.push(this.redact(`${module.moduleId}: ${firstLine(error.message ?? String(error))}`));
      }
    }
    for (const error of unhandledErrors) {
      this.results.runErrors.push(this.redact(firstLine(error.message ?? String(error))));
    }
  }
}
