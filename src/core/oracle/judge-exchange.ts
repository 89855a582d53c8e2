import type { PlainRequest } from '../http/plain-http.js';
import { stringifyJson } from '../json/exact-json.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { ClassifiedRequest, Credential } from './classify-request.js';
import { type Finding, finding, shownPair, shownValue } from './finding.js';
import { judgeReceivedResponse, type ReceivedResponse } from './judge-response.js';
import { operationFacts } from './operation-facts.js';

/** A response as received, with its headers (lower-case names). */
export interface ExchangeResponse extends ReceivedResponse {
  headers: PlainRequest['headers'];
}

export interface JudgedExchange {
  findings: Finding[];
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

function same(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && stringifyJson(a) === stringifyJson(b);
}

/** What a 2xx body must hold given the request: page size, filters, unique ids, the pet asked for, the echo. */
function judgeSuccess(compiled: CompiledDocument, request: ClassifiedRequest, body: unknown): Finding[] {
  const { operation, valid } = request;
  const facts = operationFacts(compiled, operation);
  const found: Finding[] = [];
  const id = operation.operationId;
  if (facts.kind === 'read' && facts.idParameter !== undefined) {
    // An id the document does not allow (`not-an-id`, 2^63) is answered as the deployment likes, but never with
    // another pet: the pet read must be the one the text names.
    const asked = valid ? valid.path[facts.idParameter] : request.pathParams[facts.idParameter];
    const got = (body as { id?: unknown } | undefined)?.id;
    if (asked !== undefined && got !== undefined && String(asked) !== stringifyJson(got)) {
      found.push(finding('requested-pet', `${id} ${String(asked)} answered the item whose id is ${shownValue(got)}`));
    }
    return found;
  }
  if (!valid) return [];
  if (facts.kind === 'list') {
    const pets = items(body);
    const limit = facts.limit ? valid.query[facts.limit.name] : undefined;
    if (typeof limit === 'number' && pets.length > limit) {
      const asked = valid.query[facts.limit?.name ?? ''] === facts.limit?.default ? ' (the default)' : '';
      found.push(
        finding(
          'page-within-limit',
          `${id} returned ${pets.length} items for ${facts.limit?.name}=${limit}${asked}: more than it asked for`,
        ),
      );
    }
    for (const filter of facts.filters) {
      const wanted = valid.query[filter];
      if (wanted === undefined) continue;
      const others = pets.filter((pet) => !same(pet[filter], wanted));
      if (others.length > 0) {
        found.push(
          finding(
            'status-filter',
            `${id}?${filter}=${String(wanted)} returned ${others.length} item(s) with another ${filter} (e.g. id ${shownValue(others[0]?.id)} with ${filter} ${shownValue(others[0]?.[filter])})`,
          ),
        );
      }
    }
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const pet of pets) {
      const { id: petId } = pet;
      if (petId === undefined) continue;
      const key = typeof petId === 'number' || typeof petId === 'bigint' ? String(petId) : stringifyJson(petId);
      if (seen.has(key)) twice.add(key);
      seen.add(key);
    }
    if (twice.size > 0) found.push(finding('unique-ids', `${id} listed ids ${[...twice].join(', ')} more than once`));
  } else if (facts.kind === 'create' && typeof valid.body === 'object' && valid.body !== null) {
    const echoed = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const sent = valid.body as Record<string, unknown>;
    const own = (value: Record<string, unknown>, field: string) =>
      Object.hasOwn(value, field) ? value[field] : undefined;
    const changed = facts.echoed
      .filter((field) => own(sent, field) !== undefined)
      .map((field): [string, unknown] => [field, own(sent, field)])
      .filter(([field, value]) => !same(own(echoed, field), value))
      .map(([field, value]) => {
        const [shownSent, got] = shownPair(value, own(echoed, field));
        return `'${field}': sent ${shownSent}, got ${got}`;
      });
    if (changed.length > 0) {
      found.push(finding('created-echo', `the created item differs from what was sent: ${changed.join('; ')}`));
    }
  }
  return found;
}

/**
 * Judges one exchange with every rule that needs no memory of other
 * exchanges: the response rules, then what the answer may be given the
 * request (its key, its validity by the document, a conditional GET), then
 * what a success must hold (page size, filters, unique ids, the pet asked
 * for, the echo of a create). Shared by the contract suite, the Dredd hooks
 * and the proxy.
 */
export function judgeExchange(
  compiled: CompiledDocument,
  request: ClassifiedRequest,
  response: ExchangeResponse,
): JudgedExchange {
  const { operation } = request;
  const { status } = response;
  const judged = judgeReceivedResponse(compiled, operation, response, { allowUndocumentedStatus: true });
  const findings = [...judged.findings];
  const { body } = judged;
  const name = operation.operationId;
  const documented = operation.responses.has(String(status)) || operation.responses.has('default');

  if (status === 401 && header(response.headers, 'www-authenticate') === undefined) {
    findings.push(finding('www-authenticate', `${name} answered 401 without a WWW-Authenticate challenge`));
  }
  const retryAfter = header(response.headers, 'retry-after');
  if (status === 429 || (status === 503 && retryAfter !== undefined)) {
    findings.push(
      finding(
        'rate-limited',
        `${name} answered ${status}${retryAfter === undefined ? ' without Retry-After' : ` with Retry-After: ${retryAfter}`}`,
      ),
    );
    return { findings, body };
  }
  if (status === 304) {
    findings.push(
      request.conditional
        ? finding('not-modified', `${name} answered 304 to a conditional GET`)
        : finding('documented-status', `${name} answered 304 to a request that was not conditional`),
    );
    return { findings, body };
  }
  const unauthenticated = request.credential === 'none' || request.credential === 'malformed';
  if (operation.secured && (unauthenticated || request.credential === 'wrong')) {
    if (status !== 401) {
      findings.push(
        finding('auth-required', `${name} ${credentialWords[request.credential]} answered ${status}, expected 401`),
      );
    }
    return { findings, body };
  }
  if (status === 401) {
    if (request.credential === 'valid') {
      findings.push(
        request.scheme === 'Bearer'
          ? finding('valid-key-accepted', `${name} answered 401 to the valid key`)
          : finding(
              'auth-scheme-case',
              `${name} answered 401 to the valid key with the scheme written '${request.scheme}'`,
            ),
      );
    }
    return { findings, body };
  }

  const what = request.findings[0]?.message ?? 'the request';
  const refusal = operation.responses.has('400') ? '400' : undefined;
  const success = status >= 200 && status < 300;
  switch (request.validity) {
    case 'valid':
      if (!documented) {
        findings.push(
          finding(
            'documented-status',
            `${name} answered ${status}${codeOf(body)} to a valid request; documented: ${[...operation.responses.keys()].join(', ')}`,
          ),
        );
      } else if (String(status) === refusal && !findings.some((found) => found.level === 'fail')) {
        findings.push(
          finding(
            'valid-value-refused',
            `${name} refused a request valid by the document with ${status}${codeOf(body)}: ${(body as { message?: unknown } | undefined)?.message ?? ''}`,
          ),
        );
      }
      break;
    case 'lenient':
    case 'invalid':
      if (success && request.validity === 'lenient') {
        findings.push(finding('lenient-input', `${name} accepted a whole number written as a decimal: ${what}`));
      } else if (refusal !== undefined && String(status) !== refusal) {
        findings.push(
          finding(
            'invalid-input-refused',
            `${name} answered ${status}${codeOf(body)} where the document names ${refusal}: ${what}`,
          ),
        );
      } else if (refusal === undefined) {
        findings.push(finding('open-input', `${what}; answered ${status}${codeOf(body)}`));
      }
      break;
    case 'open':
      findings.push(finding('open-input', `${what}; answered ${status}${codeOf(body)}`));
      break;
  }
  if (success && operation.deprecated) {
    const announced = ['deprecation', 'sunset'].some((field) => header(response.headers, field) !== undefined);
    if (!announced) {
      findings.push(
        finding('deprecation-header', `${name} is deprecated, but its answer carries neither Deprecation nor Sunset`),
      );
    }
  }
  if (success && !findings.some((found) => found.rule === 'schema')) {
    findings.push(...judgeSuccess(compiled, request, body));
  }
  return { findings, body };
}
