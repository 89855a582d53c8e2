import { headerValue } from '../core/http/plain-http.js';
import { stringifyJson } from '../core/json/exact-json.js';
import { type CompiledDocument, type CompiledOperation } from '../core/openapi/compile-document.js';
import { type ClassifiedRequest, classifyRequest, type Credential } from '../core/oracle/classify-request.js';
import { ReferenceModel } from '../core/model/reference-model.js';
import { fails, type Finding, finding } from '../core/oracle/finding.js';
import { judgeExchange } from '../core/oracle/judge-exchange.js';
import type { RuleId } from '../core/oracle/rule-catalogue.js';
import { matchRoute } from '../core/pipeline/match-route.js';
import type { ContractSettings } from './contract-settings.js';
import { type Int64, idOf } from './exact-ids.js';
import { type ContractRequest, type RawResponse, type SendRequest, describeRequest } from './http-client.js';
import { type BodyGenerators, createBodyGenerators } from './support/body-generators.js';
import { requestBodySchema } from './support/document-facts.js';

/** A response, with its body read exactly by the oracle and what the oracle found in the exchange. */
export interface ContractResponse extends RawResponse {
  /** The body as parsed by the oracle (integers as number or bigint); undefined when none or unreadable. */
  body: unknown;
  findings: Finding[];
}

export type RequestParts = Omit<ContractRequest, 'method' | 'path'> & { path?: string };

export interface CallOptions {
  /**
   * What the key sent is, when the check knows it better than the request
   * shows: a near-miss of the valid key is `wrong`, the valid key under
   * another spelling of the scheme is `valid`.
   */
  credential?: Credential;
  /**
   * Judges across exchanges with this memory instead of the session's: the
   * exploration starts each sequence with a fresh one, so that a sequence
   * proves its failure on its own.
   */
  memory?: ReferenceModel;
}

/** Stops a check, at a failing finding or where it cannot go on (the runner records why; it is not a crash). */
export class CheckStopped extends Error {
  constructor(readonly found: Finding | undefined) {
    super(found?.message ?? 'the check cannot go on');
    this.name = 'CheckStopped';
  }
}

/** What one check found: the oracle's findings and its own, and what it could not prove. */
export interface CheckRecord {
  findings: Finding[];
  unproven: string[];
}

/** A response received, for the coverage table. */
export interface ResponseSeen {
  operationId: string;
  status: number;
}

/** A step of the run, as a command anyone can type again (the key written as $CONTRACT_TOKEN). */
export interface SentRequest {
  request: ContractRequest;
  status: number;
}

export interface ContractSession {
  settings: ContractSettings;
  compiled: CompiledDocument;
  operation(operationId: string): CompiledOperation;
  /** The operation's path with its parameters filled in exactly, e.g. `/pets/9223372036854775807`. */
  pathOf(operationId: string, params?: Record<string, string | number | bigint>): string;
  /**
   * Sends a request for an operation, waits out a 429 or 503 with
   * Retry-After (bounded), and judges the exchange with the oracle: the
   * rules of one exchange, then those across exchanges.
   */
  call(operationId: string, request: RequestParts, options?: CallOptions): Promise<ContractResponse>;
  /**
   * Goes on only when the answer has the expected status. Otherwise the check
   * stops: failed if the oracle found the answer wrong, or passed with what it
   * could not prove (a clean refusal the document allows, a rate limit that
   * outlasted the run's patience).
   */
  expectStatus(response: ContractResponse, status: number, what: string): void;
  /** A finding of `rule` unless the condition holds; a failing one stops the check. */
  verify(rule: RuleId, condition: boolean, message: string): asserts condition;
  /** A finding that never stops the check (a warning or an observation). */
  note(rule: RuleId, message: string): void;
  /**
   * A finding made elsewhere, kept whole (level, exchange, details) with the
   * check's: the exploration keeps those of its sequences this way.
   */
  record(found: Finding): void;
  /** What the data present cannot prove (not a failure). */
  unproven(message: string): void;
  /**
   * Asks again, with growing pauses, until `probe` gives a value or the
   * settle window has passed (then once more). The time it took is observed.
   */
  eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T | undefined>;
  /** Request-body generators for an operation, derived from its schema (free text gets the name prefix). */
  bodies(operationId: string): BodyGenerators;
  /** Ids of the pets this run created, in order. */
  createdIds: Int64[];
  /** Every response received, for the coverage table. */
  responses: ResponseSeen[];
  /** Every request sent, in order (the exploration prints the steps of a failure from it). */
  sent: SentRequest[];
  redact(text: string): string;
  /** The most pets any listPets answer of this run held: a page cap, if any, is at least this. */
  largestPageSeen(): number;
  /** Starts recording a check's findings; `end` returns them. */
  begin(): void;
  end(): CheckRecord;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface SessionParts {
  settings: ContractSettings;
  compiled: CompiledDocument;
  send: SendRequest;
  redact(text: string): string;
}

/** The checks' face of one deployment (see `ContractSession`). */
export function createContractSession({ settings, compiled, send, redact }: SessionParts): ContractSession {
  const memory = new ReferenceModel({ compiled, settleMs: settings.settleMs });
  const createdIds: Int64[] = [];
  const responses: ResponseSeen[] = [];
  const sentRequests: SentRequest[] = [];
  let record: CheckRecord = { findings: [], unproven: [] };
  let largestPage = 0;
  let patienceLeft = settings.patience.totalMs;

  const operation = (operationId: string): CompiledOperation => {
    const found = compiled.byId.get(operationId);
    if (!found) throw new Error(`openapi.yaml has no operation '${operationId}'`);
    return found;
  };

  const pathOf: ContractSession['pathOf'] = (operationId, params = {}) => {
    const op = operation(operationId);
    return `/${op.segments
      .map((segment) => {
        if (typeof segment === 'string') return segment;
        const value = params[segment.param];
        if (value === undefined) throw new Error(`${operationId} needs the path parameter '${segment.param}'`);
        return encodeURIComponent(String(value));
      })
      .join('/')}`;
  };

  const add = (found: Finding): void => {
    record.findings.push({ ...found, message: redact(found.message) });
  };

  /** The request as the document sees it: the mock's own validation, so the suite and the mock agree. */
  const classify = (op: CompiledOperation, full: ContractRequest, credential?: Credential): ClassifiedRequest => {
    const match = matchRoute(compiled, op.method, full.path, { basePath: '', path: full.path });
    const body =
      full.body === undefined
        ? undefined
        : new TextEncoder().encode('raw' in full.body ? full.body.raw : stringifyJson(full.body.json));
    const headers: Record<string, string> = { ...settings.headers };
    if (full.body !== undefined) headers['content-type'] = 'application/json';
    const auth = full.auth ?? { kind: 'token' };
    if (auth.kind === 'token') headers.authorization = `Bearer ${settings.token}`;
    if (auth.kind === 'header') headers.authorization = auth.value;
    const classified = classifyRequest({
      operation: op,
      pathParams: match.pathParams,
      query: new URLSearchParams(full.query ?? {}).toString(),
      headers,
      body,
    });
    const known: Credential | undefined = credential ?? (auth.kind === 'token' ? 'valid' : undefined);
    return known === undefined || headerValue({ headers } as never, 'authorization') === undefined
      ? classified
      : { ...classified, credential: known };
  };

  /** How long to wait before asking again after a 429 or 503, or undefined to take the answer as it is. */
  const retryDelay = (raw: RawResponse, attempt: number): number | undefined => {
    if ((raw.status !== 429 && raw.status !== 503) || attempt >= settings.patience.retries) return undefined;
    const asked = retryAfterMs(raw.headers['retry-after']);
    // A 503 without Retry-After is an answer to judge; a 429 without one is waited out with a short backoff.
    const wait = asked ?? (raw.status === 429 ? 500 * 2 ** attempt : undefined);
    if (wait === undefined || wait > Math.min(settings.patience.maxWaitMs, patienceLeft)) return undefined;
    return wait;
  };

  const call: ContractSession['call'] = async (operationId, request, options = {}) => {
    const op = operation(operationId);
    const full: ContractRequest = { ...request, method: op.method, path: request.path ?? pathOf(operationId) };
    const classified = classify(op, full, options.credential);
    for (let attempt = 0; ; attempt++) {
      const raw = await send(full);
      sentRequests.push({ request: full, status: raw.status });
      responses.push({ operationId, status: raw.status });
      // Every answer is judged, a rate limit's too (its body is an Error like any other error's).
      const judged = judgeExchange(compiled, classified, {
        status: raw.status,
        contentType: raw.headers['content-type'],
        body: raw.bytes,
        headers: raw.headers,
      });
      const wait = retryDelay(raw, attempt);
      const remembered =
        wait === undefined
          ? (options.memory ?? memory).observe(classified, raw.status, judged.body, performance.now())
          : [];
      const findings = [...judged.findings, ...remembered].map((found) => ({
        ...found,
        exchange: `${describeRequest(full)} → ${raw.status}`,
        message: `${found.message}${found.rule === 'rate-limited' && wait !== undefined ? `; waited ${wait} ms and asked again` : ''}`,
      }));
      for (const found of findings) add(found);
      if (wait !== undefined) {
        patienceLeft -= wait;
        await sleep(wait);
        continue;
      }
      if (raw.status === 200 && Array.isArray(judged.body) && op.operationId === 'listPets') {
        largestPage = Math.max(largestPage, judged.body.length);
      }
      const id = idOf(judged.body);
      if (op.method === 'POST' && raw.status === 201 && id !== undefined) createdIds.push(id);
      return { ...raw, body: judged.body, findings };
    }
  };

  const generators = new Map<string, BodyGenerators>();
  const bodies = (operationId: string): BodyGenerators => {
    let found = generators.get(operationId);
    if (!found) {
      const op = operation(operationId);
      const validate = op.requestBody?.validators.get('application/json');
      if (!validate) throw new Error(`${operationId} has no JSON request body in openapi.yaml`);
      found = createBodyGenerators(compiled, requestBodySchema(compiled, op), validate, settings.namePrefix);
      generators.set(operationId, found);
    }
    return found;
  };

  return {
    settings,
    compiled,
    operation,
    pathOf,
    call,
    verify(rule, condition, message): asserts condition {
      if (condition) return;
      // The oracle already said why this exchange fails: stop there rather than say it twice.
      const said = record.findings.find((found) => fails(found, settings.strict));
      if (said) throw new CheckStopped(said);
      const found = finding(rule, redact(message));
      add(found);
      if (fails(found, settings.strict)) throw new CheckStopped(found);
    },
    expectStatus(response, status, what) {
      if (response.status === status) return;
      const said = record.findings.find((found) => fails(found, settings.strict));
      if (!said)
        record.unproven.push(
          redact(`${what}: answered ${response.status}, not ${status}, so it was not checked further`),
        );
      throw new CheckStopped(said);
    },
    record(found) {
      add(found);
    },
    note(rule, message) {
      add(finding(rule, message));
    },
    unproven(message) {
      record.unproven.push(redact(message));
    },
    async eventually(what, probe) {
      const started = performance.now();
      for (let pause = 100; ; pause *= 2) {
        const value = await probe();
        const waited = Math.round(performance.now() - started);
        if (value !== undefined) {
          if (waited > 0 && pause > 100) add(finding('settle-time', `${what} after ${waited} ms`));
          return value;
        }
        if (waited > settings.settleMs) return undefined;
        await sleep(Math.min(pause, Math.max(1, settings.settleMs - waited + 1)));
      }
    },
    bodies,
    createdIds,
    responses,
    sent: sentRequests,
    redact,
    largestPageSeen: () => largestPage,
    begin() {
      record = { findings: [], unproven: [] };
    },
    end() {
      return record;
    },
  };
}
