/** What the hook file records about a Dredd run (contracts/dredd-hooks.cjs writes it). */
export interface DreddHookResult {
  /** Names of the transactions Dredd compiled from the document. */
  transactions: string[];
  /** Plan entries (hook names) that match no transaction. */
  unmatchedHooks: string[];
  /** Transactions no plan entry (hook) is written for. */
  unplanned: string[];
  /** Transactions that really ran (not skipped). */
  executed: number;
  /** Transactions that failed validation or were failed by a hook. */
  failed: string[];
  /** Set by the afterAll hook: the run got to its end. */
  finished: boolean;
  /** Ids of the pets created, as the exact decimal text the deployment wrote. */
  createdIds: string[];
  /** The oracle's warnings, `operationId: message`: reported, never a failure. */
  warnings?: string[];
  /** Each response received, for the coverage table. */
  responses: Array<{ operationId: string; status: number }>;
  /** Set when the hooks could not load the response rules (the reason). */
  judgeError?: string;
}

/**
 * The problems that make a Dredd run fail besides Dredd's own verdict: hooks that
 * never loaded, zero transactions, hook names that no longer match a transaction.
 */
export function dreddRunProblems(result: DreddHookResult | undefined, hooksPath: string): string[] {
  if (!result) return [`the Dredd hooks did not run (is ${hooksPath} loadable?)`];
  const problems: string[] = [];
  if (result.judgeError) problems.push(`the Dredd hooks could not load the response rules: ${result.judgeError}`);
  if (!result.finished) problems.push('the Dredd run stopped before its end (the afterAll hook never ran)');
  if (result.executed === 0) problems.push('zero transactions ran');
  for (const name of result.failed) problems.push(`transaction '${name}' failed`);
  for (const name of result.unmatchedHooks) problems.push(`hook '${name}' matches no Dredd transaction`);
  for (const name of result.unplanned) problems.push(`transaction '${name}' has no hook`);
  return problems;
}
