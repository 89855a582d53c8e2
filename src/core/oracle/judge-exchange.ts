import type { PlainRequest } from '../http/plain-http.js';
import { stringifyJson } from '../json/exact-json.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { ClassifiedRequest, Credential } from './classify-request.js';
import { canonicallyEquivalent } from './canonically-equivalent.js';
import { type Finding, finding, shownPair, shownValue } from './finding.js';
import { judgeReceivedResponse, type ReceivedResponse } from './judge-response.js';
import { describeApi, type OperationSemantics } from '../model/describe-api.js';
import { patchValues, referencedItems, writtenValues } from '../model/written-values.js';
import type { RuleId } from './rule-catalogue.js';
import { isPastSunset } from '../model/is-past-sunset.js';

/** A response as received, with its headers (lower-case names). */
export interface ExchangeResponse extends ReceivedResponse {
  headers: PlainRequest['headers'];
}

export interface JudgedExchange {
  /** Shared with later judgements of the same exchange: never changed. */
  findings: readonly Finding[];
  /** The body, parsed exactly; undefined when there is none or it is not JSON. */
  body: unknown;
}

function header(headers: PlainRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const credentialWords: Record<Credential, string> = {
  none: 'without an Authorization header',
  malformed: 'with an Authorization header that is not a bearer credential',
  wrong: 'with a key that is not valid',
  bearer: 'with a bearer key',
  valid: 'with the valid key',
};

/** The Error code of a body, for messages. */
function codeOf(body: unknown): string {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` (code ${code})` : '';
}

function items(body: unknown): Array<Record<string, unknown>> {
  return Array.isArray(body)
    ? body.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

/**
 * The ids a page lists more than once, joined for a message ('' when none). A page judged before (the same parsed
 * body, as the judged answers' cache hands back for the same bytes) is not counted again.
 */
function listedTwice(listed: Array<Record<string, unknown>>, body: unknown, idField: string): string {
  const known = typeof body === 'object' && body !== null ? listedTwiceByPage.get(body) : undefined;
  if (known !== undefined && known.idField === idField) return known.twice;
  const seen = new Set<unknown>();
  const twice = new Set<unknown>();
  for (const item of listed) {
    const itemId = item[idField];
    if (itemId === undefined) continue;
    const key = valueKeyOf(itemId);
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  const shown = [...twice].map(String).join(', ');
  if (typeof body === 'object' && body !== null) listedTwiceByPage.set(body, { idField, twice: shown });
  return shown;
}
const listedTwiceByPage = new WeakMap<object, { idField: string; twice: string }>();

/** An item's id, or a filter's value, as a key that is equal for equal values (a primitive is its own key). */
function valueKeyOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? stringifyJson(value) : value;
}

function same(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && stringifyJson(a) === stringifyJson(b);
}

/**
 * Whether a success to a lenient request shows the whole number was read as
 * one (`accepted`), or says what it shows instead. A list's page size proves
 * it only when the page holds exactly that many items and that is not the
 * default: a deployment that ignores `limit=20.0` answers the default page of
 * 20 too, which is a fallback, not an acceptance.
 */
function leniencyShown(compiled: CompiledDocument, request: ClassifiedRequest, body: unknown): string {
  const semantics = describeApi(compiled).of(request.operation);
  const page = semantics.page;
  if (semantics.kind !== 'list' || !page || !request.valid) return 'accepted';
  const asked = request.valid.query[page.name];
  const listed = Array.isArray(body) ? body.length : undefined;
  if (typeof asked !== 'number' || listed === undefined) return 'accepted';
  if (listed === asked && asked !== page.default) return 'accepted';
  if (listed === asked) {
    return `the default page size (${listed} items): reading ${page.name} as ${asked} cannot be told from ignoring it`;
  }
  return `${listed} items: it did not read ${page.name} as ${asked}`;
}

/** The fields of a write the answered item must hold, with the values the write gave them. */
function expectedEcho(semantics: OperationSemantics, sent: unknown): Record<string, unknown> {
  const { resource } = semantics;
  if (!resource) return {};
  if (semantics.kind === 'update') {
    // A merge patch: a field set to null is removed, which the answer shows by leaving it out.
    return Object.fromEntries(Object.entries(patchValues(resource, sent)).filter(([, value]) => value !== null));
  }
  return writtenValues(resource, sent);
}

/** What a 2xx body must hold given the request: page size, filters, unique ids, the item asked for, the echo. */
function judgeSuccess(compiled: CompiledDocument, request: ClassifiedRequest, body: unknown): Finding[] {
  const { operation, valid } = request;
  const semantics = describeApi(compiled).of(operation);
  const { kind, resource } = semantics;
  const found: Finding[] = [];
  const id = operation.operationId;
  const at = (rule: RuleId, message: string) => finding(rule, message, undefined, compiled);
  if (!resource) return found;
  const answered = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (semantics.idParameter !== undefined && answered) {
    // An id the document does not allow (`not-an-id`, 2^63) is answered as the deployment likes, but never with
    // another item: the item answered must be the one the text names.
    const asked = valid ? valid.path[semantics.idParameter] : request.pathParams[semantics.idParameter];
    const got = (body as Record<string, unknown>)[resource.idField];
    if (asked !== undefined && got !== undefined && String(asked) !== stringifyJson(got)) {
      found.push(
        at(
          'requested-item',
          `${id} ${String(asked)} answered the item whose ${resource.idField} is ${shownValue(got)}`,
        ),
      );
      return found;
    }
  }
  if (!valid) return found;
  if (kind === 'list') {
    const listed = items(body);
    const limit = semantics.page ? valid.query[semantics.page.name] : undefined;
    // A page size written as a decimal (lenient) may be ignored: a longer page is no proof there.
    if (typeof limit === 'number' && listed.length > limit && request.validity === 'valid') {
      const page = semantics.page;
      const asked = limit === page?.default ? ' (the default)' : '';
      found.push(
        at(
          'page-within-limit',
          `${id} returned ${listed.length} items for ${page?.name}=${limit}${asked}: more than it asked for`,
        ),
      );
    }
    for (const filter of semantics.filters) {
      const wanted = valid.query[filter];
      if (wanted === undefined) continue;
      const key = valueKeyOf(wanted);
      const others = listed.filter((item) => item[filter] === undefined || valueKeyOf(item[filter]) !== key);
      if (others.length > 0) {
        found.push(
          at(
            'status-filter',
            `${id}?${filter}=${String(wanted)} returned ${others.length} item(s) with another ${filter} (e.g. ${resource.idField} ${shownValue(others[0]?.[resource.idField])} with ${filter} ${shownValue(others[0]?.[filter])})`,
          ),
        );
      }
    }
    const twice = listedTwice(listed, body, resource.idField);
    if (twice !== '') found.push(at('unique-ids', `${id} listed ${resource.idField}s ${twice} more than once`));
    return found;
  }
  if ((kind === 'create' || kind === 'replace' || kind === 'update') && answered) {
    const echoed = body as Record<string, unknown>;
    const own = (value: Record<string, unknown>, field: string) =>
      Object.hasOwn(value, field) ? value[field] : undefined;
    const differing = Object.entries(expectedEcho(semantics, valid.body)).filter(
      ([field, value]) => !same(own(echoed, field), value),
    );
    const difference = ([field, value]: [string, unknown]) => {
      const [shownSent, got] = shownPair(value, own(echoed, field));
      return `'${field}': sent ${shownSent}, got ${got}`;
    };
    // A text echoed in another normal form is the same text to Unicode: a warning, not a changed value.
    const renormalised = differing.filter(([field, value]) => canonicallyEquivalent(value, own(echoed, field)));
    const changed = differing.filter((entry) => !renormalised.includes(entry)).map(difference);
    if (kind === 'update') {
      // A field the patch removed (null) must be gone from the item it answers.
      for (const [field, value] of Object.entries(patchValues(resource, valid.body))) {
        if (value === null && own(echoed, field) !== undefined)
          changed.push(`'${field}': sent null, got ${shownValue(own(echoed, field))}`);
      }
    }
    const what = kind === 'create' ? 'created' : kind === 'replace' ? 'replaced' : 'updated';
    if (changed.length > 0) {
      const rule = kind === 'create' ? 'created-echo' : 'written-echo';
      found.push(at(rule, `the ${what} item differs from what was sent: ${changed.join('; ')}`));
    }
    if (renormalised.length > 0) {
      found.push(
        at(
          'text-normalised',
          `the ${what} item holds a canonically equivalent text in another normal form: ${renormalised.map(difference).join('; ')}`,
        ),
      );
    }
  }
  return found;
}

/** Whether a write's body refers to items (`categoryId`): whether they exist is known across exchanges only. */
function refersToItems(compiled: CompiledDocument, request: ClassifiedRequest): boolean {
  const { kind, resource } = describeApi(compiled).of(request.operation);
  if (!resource || resource.references.length === 0 || !request.valid) return false;
  if (kind !== 'create' && kind !== 'replace' && kind !== 'update') return false;
  const values =
    kind === 'update' ? patchValues(resource, request.valid.body) : writtenValues(resource, request.valid.body);
  return referencedItems(resource, values).length > 0;
}

export interface JudgeExchangeOptions {
  /**
   * The time of the exchange (ms since the epoch): past an operation's
   * removal date (`x-sunset`), what it answers is observed, never failed.
   * Default: the removal dates are not looked at.
   */
  now?: number;
}

/**
 * Judges one exchange with every rule that needs no memory of other
 * exchanges: the response rules, then what the answer may be given the
 * request (its key, its validity by the document, a conditional GET), then
 * what a success must hold by the operation's kind (page size, filters,
 * unique ids, the item asked for, the echo of a write). Past the operation's
 * removal date, whatever it answers is only observed. Shared by the contract
 * suite, the Dredd hooks and the proxy.
 */
export function judgeExchange(
  compiled: CompiledDocument,
  request: ClassifiedRequest,
  response: ExchangeResponse,
  options: JudgeExchangeOptions = {},
): JudgedExchange {
  const { operation } = request;
  const { status } = response;
  const at = (rule: RuleId, message: string) => finding(rule, message, undefined, compiled);
  const judged = judgeReceivedResponse(compiled, operation, response, { allowUndocumentedStatus: true });
  const { body } = judged;
  if (options.now !== undefined && isPastSunset(operation, options.now)) {
    const served = status >= 200 && status < 300 ? 'still serves it' : `answers ${status}${codeOf(body)}`;
    return {
      findings: [
        at(
          'removed-operation',
          `${operation.operationId} is past its removal date (${operation.sunset}), and the deployment ${served}`,
        ),
      ],
      body,
    };
  }
  // The same request (a memoised classification is the same object) answered the same (the judged answers' cache
  // hands back the same parsed body for the same bytes), with the same headers the rules read: the same findings.
  const memoised = typeof body === 'object' && body !== null;
  const before = memoised ? judgedBefore.get(body) : undefined;
  if (before && before.request === request && before.status === status && sameHeadersRead(before, response.headers)) {
    return { findings: before.findings, body };
  }
  const findings = Object.freeze(judgeWithRequest(compiled, request, response, judged));
  if (memoised) {
    const { headers } = response;
    judgedBefore.set(body, {
      request,
      status,
      findings,
      challenge: header(headers, 'www-authenticate'),
      retryAfter: header(headers, 'retry-after'),
      deprecation: header(headers, 'deprecation'),
      sunset: header(headers, 'sunset'),
    });
  }
  return { findings, body };
}

/** The headers the rules below read, as an answer carried them. */
interface HeadersRead {
  challenge: string | undefined;
  retryAfter: string | undefined;
  deprecation: string | undefined;
  sunset: string | undefined;
}

/** The last exchange judged with each parsed body: its request, status, the headers read, and what was found. */
const judgedBefore = new WeakMap<
  object,
  HeadersRead & { request: ClassifiedRequest; status: number; findings: readonly Finding[] }
>();

function sameHeadersRead(before: HeadersRead, headers: PlainRequest['headers']): boolean {
  return (
    before.challenge === header(headers, 'www-authenticate') &&
    before.retryAfter === header(headers, 'retry-after') &&
    before.deprecation === header(headers, 'deprecation') &&
    before.sunset === header(headers, 'sunset')
  );
}

/** The rules that depend on the request, after those of the response alone (`judged`). */
function judgeWithRequest(
  compiled: CompiledDocument,
  request: ClassifiedRequest,
  response: ExchangeResponse,
  judged: JudgedExchange,
): Finding[] {
  const { operation } = request;
  const { status } = response;
  const { body } = judged;
  const at = (rule: RuleId, message: string) => finding(rule, message, undefined, compiled);
  const findings = [...judged.findings];
  const name = operation.operationId;
  const documented = operation.responses.has(String(status)) || operation.responses.has('default');

  if (status === 401 && header(response.headers, 'www-authenticate') === undefined) {
    findings.push(at('www-authenticate', `${name} answered 401 without a WWW-Authenticate challenge`));
  }
  const retryAfter = header(response.headers, 'retry-after');
  if (status === 429 || (status === 503 && retryAfter !== undefined)) {
    findings.push(
      at(
        'rate-limited',
        `${name} answered ${status}${retryAfter === undefined ? ' without Retry-After' : ` with Retry-After: ${retryAfter}`}`,
      ),
    );
    return findings;
  }
  if (status === 304) {
    findings.push(
      request.conditional
        ? at('not-modified', `${name} answered 304 to a conditional GET`)
        : at('documented-status', `${name} answered 304 to a request that was not conditional`),
    );
    return findings;
  }
  const unauthenticated = request.credential === 'none' || request.credential === 'malformed';
  if (operation.secured && (unauthenticated || request.credential === 'wrong')) {
    if (status !== 401) {
      findings.push(
        at('auth-required', `${name} ${credentialWords[request.credential]} answered ${status}, expected 401`),
      );
    }
    return findings;
  }
  if (status === 401) {
    if (request.credential === 'valid') {
      findings.push(
        request.scheme === 'Bearer'
          ? at('valid-key-accepted', `${name} answered 401 to the valid key`)
          : at('auth-scheme-case', `${name} answered 401 to the valid key with the scheme written '${request.scheme}'`),
      );
    }
    return findings;
  }

  const what = request.findings[0]?.message ?? 'the request';
  const refusal = operation.responses.has('400') ? '400' : undefined;
  const success = status >= 200 && status < 300;
  switch (request.validity) {
    case 'valid':
      if (status === 400 && refersToItems(compiled, request)) {
        // A body that refers to other items is the reference model's to judge: it knows which of them exist.
      } else if (!documented) {
        findings.push(
          at(
            'documented-status',
            `${name} answered ${status}${codeOf(body)} to a valid request; documented: ${[...operation.responses.keys()].join(', ')}`,
          ),
        );
      } else if (String(status) === refusal && !findings.some((found) => found.level === 'fail')) {
        findings.push(
          at(
            'valid-value-refused',
            `${name} refused a request valid by the document with ${status}${codeOf(body)}: ${(body as { message?: unknown } | undefined)?.message ?? ''}`,
          ),
        );
      }
      break;
    case 'lenient':
    case 'invalid':
      if (success && request.validity === 'lenient') {
        const shown = leniencyShown(compiled, request, body);
        findings.push(
          shown === 'accepted'
            ? at('lenient-input', `${name} accepted a whole number written as a decimal: ${what}`)
            : at('open-input', `${what}; answered ${status} with ${shown}`),
        );
      } else if (refusal !== undefined && String(status) !== refusal) {
        findings.push(
          at(
            'invalid-input-refused',
            `${name} answered ${status}${codeOf(body)} where the document names ${refusal}: ${what}`,
          ),
        );
      } else if (refusal === undefined) {
        findings.push(at('open-input', `${what}; answered ${status}${codeOf(body)}`));
      }
      break;
    case 'open':
      findings.push(at('open-input', `${what}; answered ${status}${codeOf(body)}`));
      break;
  }
  if (success && operation.deprecated) {
    const announced = ['deprecation', 'sunset'].some((field) => header(response.headers, field) !== undefined);
    if (!announced) {
      findings.push(
        at('deprecation-header', `${name} is deprecated, but its answer carries neither Deprecation nor Sunset`),
      );
    }
  }
  if (success && !findings.some((found) => found.rule === 'schema')) {
    findings.push(...judgeSuccess(compiled, request, body));
  }
  return findings;
}
