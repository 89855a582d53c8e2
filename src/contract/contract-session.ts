import { headerValue } from '../core/http/plain-http.js';
import { stringifyJson } from '../core/json/exact-json.js';
import { type CompiledDocument, type CompiledOperation } from '../core/openapi/compile-document.js';
import { type ClassifiedRequest, classifyRequest, type Credential } from '../core/oracle/classify-request.js';
import { type ApiModel, describeApi, type OperationSemantics, type Resource } from '../core/model/describe-api.js';
import { writesByMethod } from '../core/model/operation-kind.js';
import { idKey, ReferenceModel } from '../core/oracle/reference-model.js';
import { exchangeFacts } from '../core/oracle/validator-memory.js';
import { fails, type Finding, finding } from '../core/oracle/finding.js';
import { judgeExchange } from '../core/oracle/judge-exchange.js';
import type { RuleId } from '../core/oracle/rule-catalogue.js';
import { isPastSunset } from '../core/model/is-past-sunset.js';
import { matchRoute } from '../core/pipeline/match-route.js';
import type { ContractSettings } from './contract-settings.js';
import { idOf, idText, type ItemId } from './exact-ids.js';
import { type ContractRequest, type RawResponse, type SendRequest, describeRequest } from './http-client.js';
import { type BodyGenerators, createBodyGenerators } from './support/body-generators.js';
import { requestBodySchema } from './support/document-facts.js';
import { sleepUntil } from './support/sleep-until.js';

/** A response, with its body read exactly by the oracle and what the oracle found in the exchange. */
export interface ContractResponse extends RawResponse {
  /** The body as parsed by the oracle (integers as number or bigint); undefined when none or unreadable. */
  body: unknown;
  findings: Finding[];
  /** The exchange as the run keeps it (the request as sent, its status, when). */
  sent: SentRequest;
  /** The request as the document sees it: what a model that judges the exchange later needs. */
  classified: ClassifiedRequest;
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
   * exploration replays a failing sequence, while shrinking it, from a copy
   * of the run's model as it was before the sequence.
   */
  memory?: ReferenceModel;
  /**
   * Judges the exchange alone, leaving what it shows across exchanges to the
   * caller: requests sent together are judged as some order of them
   * (`send-together.ts`), not in the order their answers came.
   */
  defer?: boolean;
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
  /** When it was sent and when its answer came (performance.now()). */
  sentAt: number;
  answeredAt: number;
  /** What the answer held that a reader of the steps needs: the id handed out, or how many items a page held. */
  summary?: string;
  /** The check (or the exploration's sequence) it was sent by. */
  during?: string;
}

export interface ContractSession {
  settings: ContractSettings;
  compiled: CompiledDocument;
  /** What the document says each operation is (its kind, its resource), read from it: the checks follow it. */
  api: ApiModel;
  /** The reference model of the run: what the exchanges showed, judged by what the document guarantees. */
  model: ReferenceModel;
  /** The operation's path with its parameters filled in exactly, e.g. `/pets/9223372036854775807`. */
  pathOf(operation: CompiledOperation, params?: Record<string, string | number | bigint>): string;
  /**
   * Sends a request for an operation, waits out a 429 or 503 with
   * Retry-After (bounded), and judges the exchange with the oracle: the
   * rules of one exchange, then those across exchanges. In read-only mode a
   * request whose method may write (anything but GET, HEAD and OPTIONS) is
   * never sent, whatever key it carries: the check stops there, unproven.
   */
  call(operation: CompiledOperation, request: RequestParts, options?: CallOptions): Promise<ContractResponse>;
  /** The run's clock (ms since the epoch): `--now`, running on from there, or the machine's. */
  now(): number;
  /** Whether an operation is past its removal date (`x-sunset`) by the run's clock: it is no longer in the contract. */
  removed(operation: CompiledOperation): boolean;
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
  bodies(operation: CompiledOperation): BodyGenerators;
  /**
   * Ids of items of a collection that exist by what the run showed (listed,
   * read, or created and not deleted), in a stable order: what a write's
   * reference (`categoryId`) names, so that a valid body refers to an item
   * that is there.
   */
  existingIds(collection: string): unknown[];
  /** Ids of the items this run created, in order. */
  createdIds: ItemId[];
  /** Every response received, for the coverage table. */
  responses: ResponseSeen[];
  /** Every request sent, in order (the exploration prints the steps of a failure from it). */
  sent: SentRequest[];
  /**
   * The acknowledged writes of an item, oldest first (creates, replaces,
   * updates, deletes): what a failure that rests on an item written earlier
   * in the run prints before its own steps.
   */
  writesOf(resource: Resource, id: unknown): readonly SentRequest[];
  /** The list exchange that showed the largest page of a resource so far: what "no page cap cut it" rests on. */
  largestPageSent(resource: Resource): SentRequest | undefined;
  redact(text: string): string;
  /** The most items any list answer of a resource held in this run: a page cap, if any, is at least this. */
  largestPageSeen(resource: Resource): number;
  /** Starts recording a check's findings (`during`: its name, kept with what it sends); `end` returns them. */
  begin(during?: string): void;
  end(): CheckRecord;
}

/** Retry-After in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `id 64` for an item created, `8 pets` for a page. */
function summaryOf(semantics: OperationSemantics, status: number, body: unknown): string | undefined {
  const { resource } = semantics;
  if (!resource) return undefined;
  const id = idOf(body, resource);
  if (semantics.kind === 'create' && status >= 200 && status < 300 && id !== undefined)
    return `${resource.idField} ${idText(id)}`;
  if (status === 200 && Array.isArray(body)) return `${body.length} ${resource.name}`;
  return undefined;
}

export interface SessionParts {
  settings: ContractSettings;
  compiled: CompiledDocument;
  send: SendRequest;
  redact(text: string): string;
}

/** The checks' face of one deployment (see `ContractSession`). */
export function createContractSession({ settings, compiled, send, redact }: SessionParts): ContractSession {
  const api = describeApi(compiled);
  const memory = new ReferenceModel({ compiled, settleMs: settings.settleMs });
  const createdIds: ItemId[] = [];
  const responses: ResponseSeen[] = [];
  const sentRequests: SentRequest[] = [];
  const writes = new Map<string, SentRequest[]>();
  const largestPages = new Map<string, { sent: SentRequest; size: number }>();
  let during: string | undefined;
  let record: CheckRecord = { findings: [], unproven: [] };
  let patienceLeft = settings.patience.totalMs;
  const started = { wall: Date.now(), mono: performance.now() };
  const now = (): number => (settings.now ?? started.wall) + (performance.now() - started.mono);

  const add = (found: Finding): void => {
    record.findings.push({ ...found, message: redact(found.message) });
  };

  const existingIds = (collection: string): unknown[] => {
    const resource = api.resource(collection);
    if (!resource) return [];
    return memory
      .items(resource)
      .filter((item) => item.exists && (item.seen !== undefined || item.writtenBy !== undefined))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, 100)
      .map((item) => item.id);
  };
  const bodies = bodyGeneratorsOf(compiled, settings, existingIds);

  const call: ContractSession['call'] = async (op, request, options = {}) => {
    const { operationId } = op;
    const full: ContractRequest = { ...request, method: op.method, path: request.path ?? pathOf(op) };
    if (settings.readOnly && writesByMethod(op.method)) {
      // The one gate every request of the suite passes: nothing that may write leaves in read-only mode.
      record.unproven.push(redact(`read-only mode: ${describeRequest(full)} was not sent (its method may write)`));
      throw new CheckStopped(undefined);
    }
    const classified = classifyContractRequest(compiled, settings, op, full, options.credential);
    const semantics = api.of(op);
    for (let attempt = 0; ; attempt++) {
      const sentAt = performance.now();
      const raw = await send(full);
      const answeredAt = performance.now();
      responses.push({ operationId, status: raw.status });
      // Every answer is judged, a rate limit's too (its body is an Error like any other error's).
      const judged = judgeExchange(
        compiled,
        classified,
        { status: raw.status, contentType: raw.headers['content-type'], body: raw.bytes, headers: raw.headers },
        { now: now() },
      );
      const wait = retryDelay(settings, patienceLeft, raw, attempt);
      const summary = summaryOf(semantics, raw.status, judged.body);
      const sent: SentRequest = {
        request: full,
        status: raw.status,
        sentAt,
        answeredAt,
        ...(summary ? { summary } : {}),
        ...(during ? { during } : {}),
      };
      sentRequests.push(sent);
      const query = new URLSearchParams(full.query ?? {}).toString();
      // When it was sent and what it carried of conditional requests: the model judges validators by them.
      const facts = exchangeFacts({
        sentAt,
        target: query === '' ? full.path : `${full.path}?${query}`,
        request: { ...settings.headers, ...full.headers },
        response: raw.headers,
        bytes: raw.bytes,
      });
      const remembered =
        wait === undefined && !options.defer
          ? (options.memory ?? memory).observe(classified, raw.status, judged.body, answeredAt, facts)
          : [];
      // How the answer came over the wire, before what it says: a body cut by a wrong Content-Length reads as broken JSON.
      const wire = wireFindings(compiled, operationId, raw);
      const findings = [...wire, ...judged.findings, ...remembered].map((found) => ({
        ...found,
        exchange: `${describeRequest(full)} → ${raw.status}`,
        message: `${found.message}${found.rule === 'rate-limited' && wait !== undefined ? `; waited ${wait} ms and asked again` : ''}`,
      }));
      for (const found of findings) add(found);
      if (wait !== undefined) {
        patienceLeft -= wait;
        await sleepUntil(performance.now() + wait);
        continue;
      }
      const { kind, resource } = semantics;
      if (resource && raw.status >= 200 && raw.status < 300) {
        const id =
          kind === 'create' ? idOf(judged.body, resource) : classified.valid?.path[semantics.idParameter ?? ''];
        if (kind === 'create' && id !== undefined) createdIds.push(id as ItemId);
        if (kind !== 'read' && kind !== 'list' && kind !== 'other' && id !== undefined) {
          const key = `${resource.name} ${idKey(id)}`;
          writes.set(key, [...(writes.get(key) ?? []), sent]);
        }
        if (kind === 'list' && Array.isArray(judged.body)) {
          const size = judged.body.length;
          if (size > (largestPages.get(resource.name)?.size ?? 0)) largestPages.set(resource.name, { sent, size });
        }
      }
      return { ...raw, body: judged.body, findings, sent, classified };
    }
  };

  return {
    settings,
    compiled,
    api,
    model: memory,
    pathOf,
    call,
    now,
    removed: (op) => isPastSunset(op, now()),
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
      // The last probe starts past the window: the model judges a read by when it was sent.
      for (let pause = 100; ; pause *= 2) {
        const probed = performance.now();
        const value = await probe();
        const waited = Math.round(performance.now() - started);
        if (value !== undefined) {
          if (waited > 0 && pause > 100) add(finding('settle-time', `${what} after ${waited} ms`));
          return value;
        }
        if (probed - started > settings.settleMs) return undefined;
        await sleepUntil(Math.min(performance.now() + pause, started + settings.settleMs + 1));
      }
    },
    bodies,
    existingIds,
    createdIds,
    responses,
    sent: sentRequests,
    writesOf: (resource, id) => writes.get(`${resource.name} ${idKey(id)}`) ?? [],
    largestPageSent: (resource) => largestPages.get(resource.name)?.sent,
    redact,
    largestPageSeen: (resource) => memory.largestPage(resource),
    begin(label) {
      record = { findings: [], unproven: [] };
      during = label;
    },
    end() {
      return record;
    },
  };
}

/** The path of an operation with its parameters, each percent-encoded. */
const pathOf: ContractSession['pathOf'] = (op, params = {}) =>
  `/${op.segments
    .map((segment) => {
      if (typeof segment === 'string') return segment;
      const value = params[segment.param];
      if (value === undefined) throw new Error(`${op.operationId} needs the path parameter '${segment.param}'`);
      return encodeURIComponent(String(value));
    })
    .join('/')}`;

/** The request as the document sees it: the mock's own validation, so the suite and the mock agree. */
function classifyContractRequest(
  compiled: CompiledDocument,
  settings: ContractSettings,
  op: CompiledOperation,
  full: ContractRequest,
  credential?: Credential,
): ClassifiedRequest {
  const match = matchRoute(compiled, op.method, full.path, { basePath: '', path: full.path });
  const body =
    full.body === undefined
      ? undefined
      : new TextEncoder().encode('raw' in full.body ? full.body.raw : stringifyJson(full.body.json));
  const headers: Record<string, string> = { ...settings.headers, ...full.headers };
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
}

/** How long to wait before asking again after a 429 or 503, or undefined to take the answer as it is. */
function retryDelay(
  settings: ContractSettings,
  patienceLeft: number,
  raw: RawResponse,
  attempt: number,
): number | undefined {
  if ((raw.status !== 429 && raw.status !== 503) || attempt >= settings.patience.retries) return undefined;
  const asked = retryAfterMs(raw.headers['retry-after']);
  // A 503 without Retry-After is an answer to judge; a 429 without one is waited out with a short backoff.
  const wait = asked ?? (raw.status === 429 ? 500 * 2 ** attempt : undefined);
  if (wait === undefined || wait > Math.min(settings.patience.maxWaitMs, patienceLeft)) return undefined;
  return wait;
}

/** How the answer came over the wire, before what it says: its framing and its Content-Encoding. */
function wireFindings(compiled: CompiledDocument, operationId: string, raw: RawResponse): Finding[] {
  return [
    ...(raw.framing === undefined
      ? []
      : [
          finding(
            'framing',
            `${operationId} answered ${raw.status}, framed wrongly: ${raw.framing}`,
            undefined,
            compiled,
          ),
        ]),
    ...(raw.encoding === undefined
      ? []
      : [finding('content-encoding', `${operationId} answered ${raw.status}: ${raw.encoding}`, undefined, compiled)]),
  ];
}

/** Each operation's body generators, made on first use. */
function bodyGeneratorsOf(
  compiled: CompiledDocument,
  settings: ContractSettings,
  existingIds: (collection: string) => unknown[],
): (op: CompiledOperation) => BodyGenerators {
  const generators = new Map<string, BodyGenerators>();
  const api = describeApi(compiled);
  return (op) => {
    let found = generators.get(op.operationId);
    if (!found) {
      const validate = op.requestBody?.validators.get('application/json');
      if (!validate) throw new Error(`${op.operationId} has no JSON request body in ${compiled.source}`);
      // A reference field names an item the run showed exists, once one is known.
      const references = new Map(
        (api.of(op).resource?.references ?? []).map((reference) => [
          reference.field,
          () => existingIds(reference.collection),
        ]),
      );
      found = createBodyGenerators(
        compiled,
        requestBodySchema(compiled, op),
        validate,
        settings.namePrefix,
        references,
      );
      generators.set(op.operationId, found);
    }
    return found;
  };
}
