import type { ErrorDetail } from '../errors/http-error.js';
import { type Level, type RuleId, ruleCatalogue, type Side } from './rule-catalogue.js';

/** What a rule found in one exchange: the rule, its level and side, what it rests on, and what broke where. */
export interface Finding {
  rule: RuleId;
  level: Level;
  side: Side;
  basis: string;
  /** One sentence naming what was seen and where. */
  message: string;
  /** For `schema` and the request rules: every problem, field by field. */
  details?: ErrorDetail[];
}

/** A finding of a rule, with the rule's level, side and basis. */
export function finding(rule: RuleId, message: string, details?: ErrorDetail[]): Finding {
  const { level, side, basis } = ruleCatalogue[rule];
  const found: Finding = { rule, level, side, basis, message };
  if (details) found.details = details;
  return found;
}

/** Whether a finding fails a run: `fail` always, `warn` too when the run is strict. */
export function fails(found: Pick<Finding, 'level'>, strict = false): boolean {
  return found.level === 'fail' || (strict && found.level === 'warn');
}

/** `[fail] created-echo: …` — how a finding reads in a line of output. */
export function describeFinding(found: Pick<Finding, 'level' | 'rule' | 'message'>): string {
  return `[${found.level}] ${found.rule}: ${found.message}`;
}
