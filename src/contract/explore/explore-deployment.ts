import fc from 'fast-check';
import { fails, type Finding } from '../../core/oracle/finding.js';
import type { ContractSession } from '../contract-session.js';
import { type ContractSettings, defaultConcurrency } from '../contract-settings.js';
import { type ExplorationBounds, ExplorationBudget } from './exploration-budget.js';
import { type ExplorationCommand, explorationCommands, SendTogether, widestPages } from './exploration-commands.js';
import { ReferenceModel } from '../../core/oracle/reference-model.js';
import { RunLedger } from './exploration-model.js';
import { type ExplorationReport, sequenceScript, sequenceSteps } from './exploration-report.js';
import { BudgetSpent, ExplorationRun, type SentStep, type SequenceContext, SequenceFailed } from './exploration-run.js';

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
const maxCommands = 12;

/** Findings of each rule kept for the check's record (the report counts them all). */
const keptPerRule = 3;

/**
 * The exploration's bounds: the budget for exploring and twice as much for
 * shrinking, exploring within 10 s (or `--duration`, if longer) plus the
 * settle window, all of it within 10 s more plus the window again (a
 * failure proven only once the window has passed takes that long to judge
 * again for each shrink).
 */
export function explorationBounds(
  settings: Pick<ContractSettings, 'budget' | 'settleMs'> & Partial<Pick<ContractSettings, 'durationMs'>>,
): ExplorationBounds {
  const exploringMs = Math.max(10_000, settings.durationMs ?? 0) + settings.settleMs;
  return {
    requests: settings.budget,
    shrinkingRequests: 2 * settings.budget,
    exploringMs,
    totalMs: exploringMs + 10_000 + settings.settleMs,
  };
}

/** The flags that draw the same sequences again. */
export function replayFlags(
  settings: Pick<ContractSettings, 'seed' | 'budget' | 'readOnly'> &
    Partial<Pick<ContractSettings, 'concurrency' | 'durationMs'>>,
): string {
  const concurrency = settings.concurrency ?? defaultConcurrency;
  return [
    `--seed ${settings.seed} --budget ${settings.budget}`,
    ...(concurrency === defaultConcurrency ? [] : [`--concurrency ${concurrency}`]),
    ...(settings.durationMs ? [`--duration ${settings.durationMs / 1000}`] : []),
    ...(settings.readOnly ? ['--read-only'] : []),
  ].join(' ');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface ExplorationOptions {
  /**
   * The clock, in milliseconds, that the time bounds of exploring and shrinking and the pacing of `--duration`
   * are kept on (default performance.now()). A test holds it still so that how long a busy machine takes does
   * not decide how far the run gets; the settle window stays on the machine's clock.
   */
  boundsClock?: () => number;
}

/**
 * The stateful exploration (model-based testing with fast-check's
 * commands): random sequences of the document's operations, drawn per kind
 * (lists, creates and reads, then replaces, updates and deletes of the items
 * the run wrote; lists and reads only in read-only mode), with valid,
 * boundary and invalid inputs, and groups of them sent at once (creates with
 * equal and different bodies racing lists and reads), through the session,
 * so that the oracle judges every exchange. The run's reference model, and
 * the explorer's model on top of it (`ExplorationModel`), judge across
 * them: every item the run's checks and sequences wrote stays in it, so a
 * sequence re-reads and lists earlier items after later writes; a group is
 * judged as some order of its requests. A sequence ends at its first
 * failing finding; fast-check then shrinks it to the shortest sequence (and
 * the smallest group) that still fails, and a last pass drops the commands,
 * and members of groups, fast-check's shrinker leaves (within twice the
 * budget). A failure found exploring that rests on items written before its
 * sequence prints their last writes first (and the larger page that showed
 * a page whole), saying where in the run they were sent, so that its lines
 * prove it on their own. Each shrinking attempt is judged by a model of its
 * own exchanges alone: a shorter sequence is taken only when it proves the
 * failure by itself, never by what other attempts did to the deployment
 * meanwhile; a failure that only the whole run shows (an eviction after
 * many writes) keeps the sequence it was found with. `--duration` spreads
 * the budget over that long. The same seed and budget draw the same
 * sequences (and the same run) again.
 */
export async function exploreDeployment(api: ContractSession, options: ExplorationOptions = {}): Promise<Exploration> {
  const { settings } = api;
  const started = performance.now();
  const budget = new ExplorationBudget(explorationBounds(settings), options.boundsClock);
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
  const ledger = new RunLedger();
  let prelude: SentStep[] = [];
  /**
   * Runs one sequence, then settles what it left open; true when it met a
   * failing finding. `drive` runs something else than drawn commands (the
   * run's end).
   */
  const runSequence = async (
    sequence: Iterable<ExplorationCommand>,
    drive?: (run: ExplorationRun) => Promise<void>,
  ): Promise<boolean> => {
    if (stopped !== undefined) return false;
    const exploring = budget.phase === 'exploring';
    if (exploring && settings.durationMs > 0) {
      // Spread over --duration: the share of the sequences' budget spent may not run ahead of the share of the time
      // passed, so that the run's end (its own fifth of the budget) comes once the duration has passed.
      const due = (settings.durationMs * budget.used.exploring) / Math.max(1, settings.budget - budget.heldForAudit);
      if (budget.elapsedMs < due) await sleep(due - budget.elapsedMs);
    }
    // Exploring: the run's model; shrinking: a model of the attempt alone (see above).
    const context: SequenceContext = {
      memory: exploring ? api.model : new ReferenceModel({ compiled: api.compiled, settleMs: settings.settleMs }),
      ledger: exploring ? ledger : new RunLedger(),
      before: performance.now(),
      label: drive
        ? "exploration › the run's end"
        : exploring
          ? `exploration › sequence ${sequences + 1}`
          : 'exploration › shrinking',
    };
    const run = new ExplorationRun(api, budget, pages, context);
    // Each sequence's findings are recorded apart; the check keeps what it reports (see the check).
    api.begin(context.label);
    let outcome: unknown;
    try {
      if (drive) await drive(run);
      else {
        await fc.asyncModelRun(() => ({ model: run.model, real: run }), sequence);
        await run.settle();
      }
    } catch (error) {
      outcome = error;
    }
    const record = api.end();
    if (budget.phase === 'exploring' && run.steps.length > 0) {
      if (!drive) sequences += 1;
      commands += run.commands;
      keep(record.findings);
      for (const message of record.unproven) unproven.add(message);
    }
    if (outcome instanceof SequenceFailed) {
      failure = { steps: run.steps, findings: record.findings, unproven: record.unproven };
      prelude = run.prelude(outcome.findings);
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
  // A quarter of the shrinking budget is held back for the pass that drops commands, a fifth of the exploring
  // budget for the run's end.
  budget.heldForLastStep = Math.ceil(budget.bounds.shrinkingRequests / 4);
  budget.heldForAudit = settings.readOnly ? 0 : Math.ceil(settings.budget / 5);
  const details = await fc.check(property, { seed: settings.seed, numRuns: Math.max(1, settings.budget) });
  budget.heldForLastStep = 0;
  if (details.failed && !failure) {
    throw details.errorInstance instanceof Error ? details.errorInstance : new Error('the exploration failed to run');
  }
  // The run's end: what the run wrote read back once more, oldest first; a failure there is its own shortest form.
  let endFailed = false;
  if (!failure && budget.heldForAudit > 0) {
    const reads = budget.heldForAudit;
    budget.heldForAudit = 0;
    endFailed = await runSequence([], (run) => run.audit(Math.ceil(reads / 2)));
  }

  // fast-check's command shrinker keeps the last commands of a sequence (it expects the failing one to be last),
  // but a sequence also fails when it settles, after its last command: drop commands one at a time, last first,
  // then members of each group sent at once, down to two.
  let dropped = 0;
  if (failure && details.counterexample && !endFailed) {
    let shortest = [...details.counterexample[0]];
    for (let index = shortest.length - 1; index >= 0 && budget.allows(1); index--) {
      const candidate = [...shortest.slice(0, index), ...shortest.slice(index + 1)];
      if (await runSequence(candidate)) {
        shortest = candidate;
        dropped += 1;
      }
    }
    for (let index = 0; index < shortest.length; index++) {
      for (let member = 0; budget.allows(1); member++) {
        // fast-check hands its commands back wrapped.
        const wrapped = shortest[index] as ExplorationCommand | { cmd: ExplorationCommand } | undefined;
        const group = wrapped && 'cmd' in wrapped ? wrapped.cmd : wrapped;
        if (!(group instanceof SendTogether) || group.members.length <= 2 || member >= group.members.length) break;
        const smaller = new SendTogether(group.members.filter((_, at) => at !== member));
        const candidate = [...shortest.slice(0, index), smaller, ...shortest.slice(index + 1)];
        if (await runSequence(candidate)) {
          shortest = candidate;
          dropped += 1;
          member -= 1;
        }
      }
    }
  }

  const failing = failure?.findings.filter((found) => fails(found, settings.strict)) ?? [];
  const steps = failure ? sequenceSteps([...prelude, ...failure.steps], settings.headers) : [];
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
            requests: { found: firstFailureRequests, shortest: failure.steps.length, earlier: prelude.length },
            shrinks: endFailed ? 0 : details.numShrinks + dropped,
            shortest: endFailed || (budget.exhausted.shrinking === undefined && stopped === undefined),
            path: endFailed ? '' : (details.counterexamplePath ?? ''),
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
