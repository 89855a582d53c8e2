import fc from 'fast-check';
import { fails, type Finding } from '../../core/oracle/finding.js';
import type { ContractSession } from '../contract-session.js';
import type { ContractSettings } from '../contract-settings.js';
import { type ExplorationBounds, ExplorationBudget } from './exploration-budget.js';
import { type ExplorationCommand, explorationCommands, widestPages } from './exploration-commands.js';
import { type ExplorationReport, sequenceScript, sequenceSteps } from './exploration-report.js';
import { BudgetSpent, ExplorationRun, type SentStep, SequenceFailed } from './exploration-run.js';

/** What the exploration did, and the findings its check keeps. */
export interface Exploration {
  report: ExplorationReport;
  /**
   * The failing findings of the shortest failing sequence first, then a few
   * findings of each rule (warnings, observations) the sequences came upon.
   */
  findings: Finding[];
  unproven: string[];
}

/** Commands a sequence holds at most (about 12 on average: enough for pets to meet pages). */
const maxCommands = 24;

/** Findings of each rule kept for the check's record (the report counts them all). */
const keptPerRule = 3;

/**
 * The exploration's bounds: the budget for exploring and twice as much for
 * shrinking, exploring within 10 s plus the settle window, all of it within
 * 20 s plus twice the window (a failure proven only once the window has
 * passed takes that long to judge again for each shrink).
 */
export function explorationBounds(settings: Pick<ContractSettings, 'budget' | 'settleMs'>): ExplorationBounds {
  return {
    requests: settings.budget,
    shrinkingRequests: 2 * settings.budget,
    exploringMs: 10_000 + settings.settleMs,
    totalMs: 20_000 + 2 * settings.settleMs,
  };
}

/** The flags that draw the same sequences again. */
export function replayFlags(settings: Pick<ContractSettings, 'seed' | 'budget' | 'readOnly'>): string {
  return `--seed ${settings.seed} --budget ${settings.budget}${settings.readOnly ? ' --read-only' : ''}`;
}

/**
 * The stateful exploration (model-based testing with fast-check's
 * commands): random sequences of the document's operations, drawn per kind
 * (lists, creates and reads, then replaces, updates and deletes of the items
 * a sequence wrote; lists and reads only in read-only mode), with valid,
 * boundary and invalid inputs, sent to the deployment one request at a time
 * through the session, so that the oracle judges every exchange; each
 * sequence's reference model, and the explorer's model on top of it
 * (`ExplorationModel`), judge across them. A
 * sequence ends at its first failing finding; fast-check then shrinks it to
 * the shortest sequence that still fails, and a last pass drops the
 * commands fast-check's shrinker leaves (within twice the budget). The same
 * seed and budget draw the same sequences again.
 */
export async function exploreDeployment(api: ContractSession): Promise<Exploration> {
  const { settings } = api;
  const started = performance.now();
  const budget = new ExplorationBudget(explorationBounds(settings));
  const findingsByRule: Record<string, number> = {};
  const kept = new Map<string, Finding[]>();
  const unproven = new Set<string>();
  let failure: { steps: SentStep[]; findings: Finding[]; unproven: string[] } | undefined;
  let firstFailureRequests = 0;
  let stopped: unknown;
  let sequences = 0;
  let commands = 0;

  const keep = (findings: readonly Finding[]): void => {
    for (const found of findings) {
      findingsByRule[found.rule] = (findingsByRule[found.rule] ?? 0) + 1;
      if (fails(found, settings.strict)) continue;
      const sample = kept.get(found.rule) ?? [];
      if (sample.length < keptPerRule && !sample.some((other) => other.message === found.message)) sample.push(found);
      kept.set(found.rule, sample);
    }
  };

  const pages = widestPages(api);
  /** Runs one sequence, then settles what it left open; true when it met a failing finding. */
  const runSequence = async (sequence: Iterable<ExplorationCommand>): Promise<boolean> => {
    if (stopped !== undefined) return false;
    const run = new ExplorationRun(api, budget, pages);
    // Each sequence's findings are recorded apart; the check keeps what it reports (see the check).
    api.begin();
    let outcome: unknown;
    try {
      await fc.asyncModelRun(() => ({ model: run.model, real: run }), sequence);
      await run.settle();
    } catch (error) {
      outcome = error;
    }
    const record = api.end();
    if (budget.phase === 'exploring' && run.steps.length > 0) {
      sequences += 1;
      commands += run.commands;
      keep(record.findings);
      for (const message of record.unproven) unproven.add(message);
    }
    if (outcome instanceof SequenceFailed) {
      failure = { steps: run.steps, findings: record.findings, unproven: record.unproven };
      if (budget.phase === 'exploring') firstFailureRequests = run.steps.length;
      budget.phase = 'shrinking';
      return true;
    }
    // The budget spent ends a sequence without a verdict; anything else (the deployment unreachable) ends the exploration.
    if (outcome !== undefined && !(outcome instanceof BudgetSpent)) stopped = outcome;
    return false;
  };

  const sequencesToDraw = fc.commands(explorationCommands(api), { maxCommands, size: 'medium' });
  const property = fc.asyncProperty(sequencesToDraw, async (sequence) => {
    if (await runSequence(sequence)) throw new Error('the sequence met a failing finding');
  });
  // A quarter of the shrinking budget is held back for the pass that drops commands.
  budget.heldForLastStep = Math.ceil(budget.bounds.shrinkingRequests / 4);
  const details = await fc.check(property, { seed: settings.seed, numRuns: Math.max(1, settings.budget) });
  budget.heldForLastStep = 0;
  if (details.failed && !failure) {
    throw details.errorInstance instanceof Error ? details.errorInstance : new Error('the exploration failed to run');
  }

  // fast-check's command shrinker keeps the last commands of a sequence (it expects the failing one to be last),
  // but a sequence also fails when it settles, after its last command: drop commands one at a time, last first.
  let dropped = 0;
  if (failure && details.counterexample) {
    let shortest = [...details.counterexample[0]];
    for (let index = shortest.length - 1; index >= 0 && budget.allows(1); index--) {
      const candidate = [...shortest.slice(0, index), ...shortest.slice(index + 1)];
      if (await runSequence(candidate)) {
        shortest = candidate;
        dropped += 1;
      }
    }
  }

  const failing = failure?.findings.filter((found) => fails(found, settings.strict)) ?? [];
  const steps = failure ? sequenceSteps(failure.steps, settings.headers) : [];
  const report: ExplorationReport = {
    seed: settings.seed,
    budget: settings.budget,
    readOnly: settings.readOnly,
    outcome: failure ? 'failed' : stopped !== undefined ? 'stopped' : 'passed',
    requests: { ...budget.used },
    bounds: budget.bounds,
    stoppedBy: { ...budget.exhausted },
    sequences,
    commands,
    findingsByRule,
    durationMs: Math.round(performance.now() - started),
    replay: replayFlags(settings),
    ...(failure
      ? {
          failure: {
            findings: failing.map(({ rule, level, basis, exchange, message }) => ({
              rule,
              level,
              basis,
              ...(exchange === undefined ? {} : { exchange }),
              message,
            })),
            steps,
            script: sequenceScript(settings.baseUrl, steps),
            requests: { found: firstFailureRequests, shortest: failure.steps.length },
            shrinks: details.numShrinks + dropped,
            shortest: budget.exhausted.shrinking === undefined && stopped === undefined,
            path: details.counterexamplePath ?? '',
          },
        }
      : {}),
    ...(stopped === undefined ? {} : { error: api.redact((stopped as Error).message ?? String(stopped)) }),
  };
  return {
    report,
    findings: [...failing, ...[...kept.values()].flat()],
    unproven: [...new Set([...(failure?.unproven ?? []), ...unproven])],
  };
}
