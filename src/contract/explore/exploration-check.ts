import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { exploredOperations } from './exploration-commands.js';
import { type ExplorationOptions, exploreDeployment, explorationBounds, replayFlags } from './explore-deployment.js';
import { type ExplorationReport, failureLines } from './exploration-report.js';

/** The report of each session's exploration, for the run's outcome (`explorationReportOf`). */
const reports = new WeakMap<ContractSession, ExplorationReport>();

/** What the exploration of a session did, once its check has run (or `off` with --budget 0). */
export function explorationReportOf(api: ContractSession): ExplorationReport | undefined {
  return reports.get(api);
}

/**
 * The stateful exploration as the suite's last check (operation
 * `exploration`): it fails with the shortest failing sequence, printed as
 * curl commands under its failing finding. Its warnings and observations (a
 * few of each rule) and what it could not prove are kept with it; its report
 * goes into the run's outcome. `--budget 0` leaves it out.
 */
export function explorationChecks(api: ContractSession, checks: CheckList, options: ExplorationOptions = {}): void {
  const { settings } = api;
  if (settings.budget === 0) {
    reports.set(api, {
      seed: settings.seed,
      budget: 0,
      readOnly: settings.readOnly,
      outcome: 'off',
      requests: { exploring: 0, shrinking: 0 },
      bounds: explorationBounds(settings),
      stoppedBy: {},
      sequences: 0,
      commands: 0,
      findingsByRule: {},
      durationMs: 0,
      replay: replayFlags(settings),
    });
    return;
  }
  const names = exploredOperations(api).map((each) => each.operation.operationId);
  if (names.length === 0) return;
  const operations = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  checks.add(
    'exploration',
    `drives random sequences of ${operations} against a model of what the spec guarantees (fast-check, seed ${settings.seed}, budget ${settings.budget})`,
    async () => {
      const { report, findings, unproven } = await exploreDeployment(api, options);
      reports.set(api, report);
      // The sequences' findings were recorded one sequence at a time; the check keeps these.
      api.begin();
      const lines = failureLines(report);
      findings.forEach((found, index) => {
        api.record(
          index === 0 && lines.length > 0 ? { ...found, message: [found.message, ...lines].join('\n') } : found,
        );
      });
      for (const message of unproven) api.unproven(message);
      if (report.outcome === 'stopped')
        throw new Error(`the exploration stopped: ${report.error ?? 'it could not go on'}`);
    },
  );
}
