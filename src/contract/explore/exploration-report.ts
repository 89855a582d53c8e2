import { describeFinding, type Finding } from '../../core/oracle/finding.js';
import { describeRequest } from '../http-client.js';
import { curlCommand, shellQuote } from './curl-command.js';
import type { Exhausted, ExplorationBounds } from './exploration-budget.js';
import type { SentStep } from './exploration-run.js';

/**
 * A step of a failing sequence in the report: a request with the status it
 * got (`together`: the group of requests it was sent at once with;
 * `earlier`: an exchange of the run before the sequence that the failure
 * rests on, and the check or sequence that sent it), or a pause.
 */
export type ExplorationStep =
  | { request: string; status: number; summary?: string; curl: string; together?: number; earlier?: string }
  | { sleepMs: number; note?: string };

export interface ExplorationFailure {
  /** The failing findings of the shortest sequence. */
  findings: Array<Pick<Finding, 'rule' | 'level' | 'basis' | 'exchange' | 'message'>>;
  steps: ExplorationStep[];
  /** The steps as lines anyone can paste into a shell: `BASE=…`, then each curl (or sleep) with the status it got. */
  script: string[];
  /**
   * Requests of the sequence as first found, and of the shortest one; and
   * the exchanges of the run before it that the failure rests on, printed first.
   */
  requests: { found: number; shortest: number; earlier: number };
  /** fast-check's successful shrinks; `shortest` false when a bound stopped shrinking early. */
  shrinks: number;
  shortest: boolean;
  /** fast-check's path to the sequence its shrinker ended with (before the pass that drops commands). */
  path: string;
}

/** What the stateful exploration did: `ContractOutcome.exploration`, in the JSON report and the summary. */
export interface ExplorationReport {
  seed: number;
  budget: number;
  readOnly: boolean;
  /** `off` with --budget 0; `stopped` when it could not go on (the deployment stopped answering). */
  outcome: 'passed' | 'failed' | 'off' | 'stopped';
  /** Requests sent exploring (at most the budget) and shrinking a failure (at most twice the budget). */
  requests: { exploring: number; shrinking: number };
  bounds: ExplorationBounds;
  /** The bound that ended a phase before it was done, if any. */
  stoppedBy: { exploring?: Exhausted; shrinking?: Exhausted };
  /** Sequences run while exploring, and the commands they ran. */
  sequences: number;
  commands: number;
  /** How many findings of each rule the sequences came upon, every level. */
  findingsByRule: Record<string, number>;
  durationMs: number;
  /** The flags that draw the same sequences again. */
  replay: string;
  failure?: ExplorationFailure;
  error?: string;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1).replace(/\.?0+$/, '') || '0';
}

/** What groups a step with the steps beside it: the round of reads that settle the end, or the group sent at once. */
function groupKey(step: SentStep | undefined): string | undefined {
  if (step?.round !== undefined) return `round ${step.round}`;
  return step?.together === undefined ? undefined : `together ${step.together}`;
}

/** The steps of a sequence grouped: each request alone, a group sent at once, the reads that settle its end by round. */
function groupsOf(steps: readonly SentStep[]): SentStep[][] {
  const groups: SentStep[][] = [];
  for (const step of steps) {
    const last = groups.at(-1);
    const key = groupKey(step);
    if (key !== undefined && groupKey(last?.[0]) === key) last?.push(step);
    else groups.push([step]);
  }
  return groups;
}

/** When the last answer of a group came. */
const lastAnswer = (group: readonly SentStep[]) => Math.max(...group.map((step) => step.answeredAt));

/** Pauses shorter than this are the time a request took, not a wait: not shown. */
const shortestPause = 5;

const signature = (group: readonly SentStep[]) =>
  group.map((step) => `${describeRequest(step.request)} ${step.status} ${step.summary ?? ''}`).join('\n');

/**
 * The steps of a failing sequence for the report: each request as a curl
 * command with the status it got, and the pauses between the reads that
 * settle its end; rounds of those reads that got the same answers are shown
 * once, then the last of them after one pause for the time they took.
 */
export function sequenceSteps(steps: readonly SentStep[], extraHeaders: Record<string, string>): ExplorationStep[] {
  const shown: ExplorationStep[] = [];
  const requestSteps = (group: readonly SentStep[]): ExplorationStep[] =>
    group.map((step) => ({
      request: describeRequest(step.request),
      status: step.status,
      ...(step.summary ? { summary: step.summary } : {}),
      curl: curlCommand(step.request, extraHeaders),
      ...(step.together === undefined ? {} : { together: step.together }),
      ...(step.earlier === undefined ? {} : { earlier: step.earlier }),
    }));
  const groups = groupsOf(steps);
  let previous: number | undefined;
  for (let index = 0; index < groups.length; index++) {
    const group = groups[index] ?? [];
    let last = group;
    let skipped = 0;
    if (group[0]?.round !== undefined) {
      while (index + 1 < groups.length && signature(groups[index + 1] ?? []) === signature(group)) {
        index += 1;
        skipped += 1;
        last = groups[index] ?? [];
      }
    }
    const first = group[0];
    if (previous !== undefined && first && first.sentAt - previous >= shortestPause) {
      shown.push({ sleepMs: Math.round(first.sentAt - previous) });
    }
    shown.push(...requestSteps(group));
    if (skipped > 0) {
      const start = lastAnswer(group);
      const again = skipped - 1;
      shown.push({
        sleepMs: Math.round((last[0]?.sentAt ?? start) - start),
        note:
          again > 0 ? `asked ${again} more time${again === 1 ? '' : 's'} meanwhile, with the same answers` : undefined,
      });
      shown.push(...requestSteps(last));
    }
    previous = last.length > 0 ? lastAnswer(last) : previous;
  }
  return shown;
}

/**
 * The steps as shell lines: `BASE=…`, then each curl with `# → status`, and
 * `sleep` for each pause; the requests of a group sent at once each end
 * with `&`, and `wait` follows them; an exchange from before the sequence
 * says where in the run it was sent.
 */
export function sequenceScript(baseUrl: string, steps: readonly ExplorationStep[]): string[] {
  const lines = [`BASE=${shellQuote(baseUrl)}   # and CONTRACT_TOKEN, the key`];
  steps.forEach((step, index) => {
    if (!('curl' in step)) {
      lines.push(`sleep ${seconds(step.sleepMs)}${step.note ? `   # ${step.note}` : ''}`);
      return;
    }
    const together = step.together !== undefined;
    const answer = `# → ${step.status}${step.summary ? `, ${step.summary}` : ''}${step.earlier ? ` (earlier in the run: ${step.earlier})` : ''}`;
    lines.push(`${step.curl}${together ? ' &' : ''}   ${answer}`);
    const next = steps[index + 1];
    if (together && !(next && 'curl' in next && next.together === step.together)) lines.push('wait');
  });
  return lines;
}

/** The longest line of a sequence shown in the human output; the JSON report keeps every line whole. */
const longestShownLine = 2_000;

/**
 * What a failed exploration says under its failing finding: how far it was
 * shrunk, how to draw the same sequences again, and the sequence as lines to
 * paste.
 */
export function failureLines(report: ExplorationReport): string[] {
  const { failure } = report;
  if (!failure) return [];
  const { found, shortest } = failure.requests;
  const bound =
    report.stoppedBy.shrinking === 'time' ? `${seconds(report.bounds.totalMs)} s` : `${report.budget} requests`;
  const shrunk = failure.shortest
    ? `shrunk from ${found} to ${shortest} requests (${failure.shrinks} shrinks in ${report.requests.shrinking} requests)`
    : `shrunk from ${found} to ${shortest} requests (${failure.shrinks} shrinks), then shrinking stopped at its bound (${bound}): a shorter or simpler sequence may fail too`;
  const { earlier } = failure.requests;
  const rests =
    earlier > 0
      ? `; it rests on ${earlier} exchange${earlier === 1 ? '' : 's'} sent earlier in the run, printed first`
      : '';
  return [
    `${shrunk}${rests}; the same sequences again: ${report.replay}`,
    ...failure.script.map((line) =>
      line.length > longestShownLine
        ? `${line.slice(0, longestShownLine)}… (${line.length} characters: the whole line is in the --json report)`
        : line,
    ),
  ];
}

/** The exploration's section of the summary: seed, budget, what it sent, and its verdict. */
export function explorationSummaryLines(report: ExplorationReport | undefined): string[] {
  if (!report) return [];
  if (report.outcome === 'off') return ['', 'Stateful exploration: off (--budget 0)'];
  const lines = [
    '',
    `Stateful exploration (fast-check, seed ${report.seed}, budget ${report.budget}${report.readOnly ? ', reads only' : ''}):`,
    `  ${report.sequences} sequences, ${report.commands} commands, ${report.requests.exploring} requests exploring${report.requests.shrinking > 0 ? ` and ${report.requests.shrinking} shrinking` : ''} in ${seconds(report.durationMs)} s`,
  ];
  if (report.stoppedBy.exploring === 'time') {
    lines.push(
      `  exploring stopped at its time bound (${seconds(report.bounds.exploringMs)} s) before the budget was spent`,
    );
  }
  if (report.outcome === 'failed' && report.failure) {
    const [first] = report.failure.findings;
    lines.push(
      `  failed: ${first ? describeFinding(first) : 'a failing finding'}`,
      `  the shortest failing sequence (${report.failure.requests.shortest} requests) is printed with the exploration check above`,
    );
  } else if (report.outcome === 'stopped') {
    lines.push(`  stopped: ${report.error ?? 'it could not go on'}`);
  } else {
    lines.push('  no failure');
  }
  lines.push(`  the same sequences again: ${report.replay}`);
  return lines;
}
