import type { ErrorDetail } from '../errors/http-error.js';
import { stringifyJson } from '../json/exact-json.js';
import { describeApi } from '../model/describe-api.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { basisOf, type Level, type RuleId, ruleCatalogue, type Side } from './rule-catalogue.js';

/** What a rule found in one exchange: the rule, its level and side, what it rests on, and what broke where. */
export interface Finding {
  rule: RuleId;
  level: Level;
  side: Side;
  basis: string;
  /** One sentence naming what was seen and where. */
  message: string;
  /** The exchange it was seen in, when the finder knows it: `GET /pets?limit=1 → 200`. */
  exchange?: string;
  /** For `schema` and the request rules: every problem, field by field. */
  details?: ErrorDetail[];
}

/**
 * A finding of a rule, with the rule's level, side and basis, the basis as
 * the document judged by states it (`compiled`: its operations, statuses and
 * fields; see rule-catalogue.ts).
 */
export function finding(rule: RuleId, message: string, details?: ErrorDetail[], compiled?: CompiledDocument): Finding {
  const { level, side } = ruleCatalogue[rule];
  const found: Finding = { rule, level, side, basis: basisOf(rule, compiled && describeApi(compiled)), message };
  if (details) found.details = details;
  return found;
}

/** Whether a finding fails a run: `fail` always, `warn` too when the run is strict. */
export function fails(found: Pick<Finding, 'level'>, strict = false): boolean {
  return found.level === 'fail' || (strict && found.level === 'warn');
}

/** `[fail] created-echo: POST /pets → 201: …` — how a finding reads in a line of output. */
export function describeFinding(found: Pick<Finding, 'level' | 'rule' | 'message' | 'exchange'>): string {
  return `[${found.level}] ${found.rule}: ${found.exchange === undefined ? '' : `${found.exchange}: `}${found.message}`;
}

/**
 * A value as exact JSON for a message, shortened, with combining marks,
 * joiners, direction marks and other invisible characters written as `\u`
 * escapes, so that two texts that look alike show how they differ.
 */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = visible(value);
  return text.length > 80 ? `${text.slice(0, 60)}… (${text.length} characters)` : text;
}

function visible(value: unknown): string {
  return stringifyJson(value).replace(
    /[\p{M}\p{C}]/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Two values that differ, for `sent X, got Y`: whole when short, otherwise
 * each cut to a window around where they first differ, so that the difference
 * is what shows.
 */
export function shownPair(sent: unknown, got: unknown): [string, string] {
  if (sent === undefined || got === undefined) return [shownValue(sent), shownValue(got)];
  const [a, b] = [visible(sent), visible(got)];
  if (a.length <= 80 && b.length <= 80) return [a, b];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const start = Math.max(0, at - 30);
  const cut = (text: string) =>
    `${start > 0 ? '…' : ''}${text.slice(start, start + 60)}${text.length > start + 60 ? '…' : ''} (${text.length} characters)`;
  return [cut(a), cut(b)];
}
