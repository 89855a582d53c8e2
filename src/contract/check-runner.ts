import { fails, type Finding, describeFinding } from '../core/oracle/finding.js';
import { CheckStopped, type ContractSession } from './contract-session.js';

/**
 * One check of the contract suite: a named function, registered in one
 * place (see checks/), that sends requests through the session. The oracle
 * judges every exchange; the check adds what only it can know (a page that
 * holds every match, a pet it created), each with its rule.
 */
export interface Check {
  operationId: string;
  /** Its name below the operation: `authentication › answers 401 with an Error without an Authorization header`. */
  name: string;
  /** It sends a request whose method may write (anything but GET, HEAD, OPTIONS): skipped in read-only mode. */
  writes: boolean;
  run(): Promise<void>;
}

/** Collects a suite's checks, in the order they run. */
export class CheckList {
  readonly checks: Check[] = [];

  add(operationId: string, name: string, run: () => Promise<void>, options: { writes?: boolean } = {}): void {
    this.checks.push({ operationId, name, writes: options.writes === true, run });
  }
}

export type CheckState = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  operationId: string;
  name: string;
  state: CheckState;
  durationMs: number;
  /** What failed it: failing findings (`[fail] rule: message`), or the crash of the check itself. */
  errors: string[];
  /** Everything the oracle and the check found during it, every level. */
  findings: Finding[];
  /** What the data present could not prove. */
  unproven: string[];
}

export interface RunChecksOptions {
  readOnly: boolean;
  strict: boolean;
  /** The longest a check may take. */
  timeoutMs: number;
  /** Told of each result as it comes. */
  onResult?: (result: CheckResult) => void;
}

function timeout(ms: number): { promise: Promise<never>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the check did not finish within ${ms} ms`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Runs checks one after another against one session (one request at a
 * time, but for a group a check sends at once, of at most `--concurrency`:
 * a deployment is never loaded by the suite). A check fails when a
 * failing finding came up during it (`--strict`: a warning too), or when it
 * crashed; it passes otherwise, its warnings and observations kept beside it.
 */
export async function runChecks(
  api: ContractSession,
  checks: readonly Check[],
  options: RunChecksOptions,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const base = { operationId: check.operationId, name: check.name };
    if (check.writes && options.readOnly) {
      const skipped: CheckResult = { ...base, state: 'skipped', durationMs: 0, errors: [], findings: [], unproven: [] };
      results.push(skipped);
      options.onResult?.(skipped);
      continue;
    }
    const started = performance.now();
    api.begin(`${check.operationId} › ${check.name}`);
    const crashes: string[] = [];
    const limit = timeout(options.timeoutMs);
    try {
      await Promise.race([check.run(), limit.promise]);
    } catch (error) {
      if (!(error instanceof CheckStopped)) crashes.push(api.redact((error as Error).message ?? String(error)));
    } finally {
      limit.cancel();
    }
    const { findings, unproven } = api.end();
    const failing = findings.filter((found) => fails(found, options.strict)).map(describeFinding);
    const errors = [...new Set([...failing, ...crashes])];
    const result: CheckResult = {
      ...base,
      state: errors.length > 0 ? 'failed' : 'passed',
      durationMs: Math.round(performance.now() - started),
      errors,
      findings,
      unproven,
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
