import { HttpError } from './errors/http-error.js';
import { errorBody, toErrorResponse } from './errors/to-error-response.js';
import type { HandlerResponse, ValidRequest } from './handlers/handler-types.js';
import type { Inflate } from './http/inflate.js';
import { headerValue, type NetworkFault, type PlainRequest, type PlainResponse } from './http/plain-http.js';
import type { RequestJournal } from './journal/request-journal.js';
import type { MockLogger } from './mock-logger.js';
import type { CompiledOperation } from './openapi/compile-document.js';
import { applyLatency } from './pipeline/apply-latency.js';
import { assignRequestId } from './pipeline/assign-request-id.js';
import { bearerChallenge, type Authenticator } from './pipeline/authenticate.js';
import { corsHeaders, preflightResponse } from './pipeline/cors-policy.js';
import { decodeBody } from './pipeline/decode-body.js';
import {
  responseViolations,
  type ForwardedResponse,
  type ProxyViolation,
  type Upstream,
} from './pipeline/forward-upstream.js';
import { injectFault } from './pipeline/inject-fault.js';
import { matchRoute, type RouteMatch } from './pipeline/match-route.js';
import { readBody } from './pipeline/read-body.js';
import { readPreference } from './pipeline/read-preference.js';
import { selectMount, type Mount } from './pipeline/select-mount.js';
import { serialiseResponse, type SerialisedResponse } from './pipeline/serialise-response.js';
import { servePublicFile, type PublicFile } from './pipeline/serve-public-file.js';
import { validateRequest } from './pipeline/validate-request.js';
import { validateResponse } from './pipeline/validate-response.js';
import { judgeReceivedResponse } from './rules/response-rules.js';
import type { Session } from './sessions/session.js';
import type { SessionChoice } from './sessions/session-registry.js';

/** What the pipeline runs with: everything is built once, at start-up (see create-mock-core.ts). */
export interface Pipeline {
  /** The APIs served, by base path: the animals API and the admin API. */
  mounts: readonly Mount[];
  /** Files served to anyone, by path: the document, and the pages in Node. */
  publicFiles: ReadonlyMap<string, PublicFile>;
  /** The session name a request gives, checked (and the problem with it, if any); nothing is made. */
  selectSession(request: PlainRequest): SessionChoice;
  /**
   * The session of that name: made if need be when `make` (the request is
   * authenticated), otherwise only one that exists already (issue 20).
   */
  session(name: string, make: boolean): Session | undefined;
  authenticate: Authenticator;
  inflate: Inflate;
  bodyLimit: number;
  logger: MockLogger;
  /** Whether the info-level request log is on (checked once, not per request). */
  logRequests: boolean;
  /** Pending while the first scenario is generated (in a browser, Faker loads on demand). */
  ready: Promise<void> | undefined;
}

/** Headers every response carries: no sniffing, no caching of a stateful mock's answers. */
const commonHeaders = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

/** What the middle answered: a value the pipeline serialises (the mock), or bytes it passes on (the proxy). */
type Answer = { handled: HandlerResponse } | { forwarded: ForwardedResponse };

/**
 * The request pipeline, in the order every request meets it. Each stage is a
 * function in ./pipeline/, and each throws an `HttpError` to answer an
 * error; whatever is thrown becomes an Error body in `toErrorResponse` and
 * goes through the same response validation and write as any answer.
 *
 *   request id → CORS (a preflight is answered here) → public files (the
 *   document) → session name (Petstore-Session, checked) → mount (/v1,
 *   /__admin; 404 elsewhere) → body (413) → route (404, 405) → authenticate
 *   (401, unless the operation's security is empty) → a bad session name
 *   (400) → the session (made only now, once authenticated) → latency (the
 *   API's only) → injected fault (an Error of any status, or a broken connection)
 *   → Content-Encoding (415, 400) → validate the request (400, 415) →
 *   Prefer (400) → the middle: the handler (or the documented example Prefer
 *   asked for), or, in the proxy, the upstream → judge the response by the
 *   one rule set (the mock's own: 500 when it breaks the document) →
 *   serialise (cached by the handler's key) → headers → journal and log.
 *
 * In the proxy the same stages judge instead of refusing: an unknown route,
 * an invalid request or response is reported (`Petstore-Violations`) and
 * the traffic passes unchanged, unless `--enforce` asks to refuse it; keys
 * are the upstream's to judge.
 */
export async function handleRequest(pipeline: Pipeline, request: PlainRequest): Promise<PlainResponse> {
  const started = performance.now();
  const startedAt = Date.now();
  const id = assignRequestId(request);
  const cors = corsHeaders(request);
  const preflight = cors && preflightResponse(request, cors);
  if (preflight) return { ...preflight, headers: { ...preflight.headers, 'x-request-id': id } };
  const file = servePublicFile(pipeline.publicFiles, request);
  if (file) return { ...file, headers: { ...file.headers, ...commonHeaders, 'x-request-id': id, ...cors } };

  let mount: Mount | undefined;
  let session: Session | undefined;
  let selected: SessionChoice | undefined;
  let operation: CompiledOperation | undefined;
  let body: Uint8Array | undefined;
  let answer: Answer;
  let serialised: SerialisedResponse | undefined;
  const violations: ProxyViolation[] = [];
  try {
    if (pipeline.ready) await pipeline.ready;
    // Problems a client without a key must not learn about wait until it is authenticated: a bad session name,
    // and (below) any problem reading the body but its size.
    selected = pipeline.selectSession(request);
    const under = selectMount(pipeline.mounts, request.method, request.path);
    mount = under.mount;
    const { upstream } = mount;
    // An over-size body is refused at once.
    let readError: unknown;
    body = await readBody(request, pipeline.bodyLimit).catch((error: unknown) => {
      if (error instanceof HttpError && error.code === 'payload_too_large') throw error;
      readError = error;
      return undefined;
    });
    const sentBody = body;
    const match = findRoute(mount, request, under.path, violations);
    operation = match?.operation;
    if (operation?.secured && !upstream) pipeline.authenticate(headerValue(request, 'authorization'));
    // The proxy forwards the session header: the upstream judges it, as it judges the key.
    if (selected.problem && !upstream) throw selected.problem;
    // Issue 20: a session is made only for an authenticated request. The proxy does not authenticate the API's
    // requests (the upstream does): they use a session made through its admin API, or the default one.
    session =
      pipeline.session(selected.name, operation?.secured === true && !upstream) ?? pipeline.session('default', false)!;
    // Issue 20: latency is the API's, once authenticated; health, the admin API and refusals answer at once.
    if (!mount.admin) await applyLatency(session.latency, session.random);
    const fault = mount.admin || !operation ? undefined : injectFault(session, operation);
    if (fault) return observe(pipeline, session, exchangeOf(request, id, startedAt, started, body), broken(fault));
    if (readError !== undefined) throw readError;
    const decoded = await decodeRequestBody(request, body, pipeline, upstream, violations);
    if (decoded !== null) body = decoded;
    const valid = match && decoded !== null ? checkRequest(match, request, body, upstream, violations) : undefined;
    if (upstream) {
      answer = { forwarded: await upstream.forward({ request, body: sentBody, operation }) };
    } else {
      const preference = readPreference(match!.operation, headerValue(request, 'prefer'));
      answer = { handled: await mount.middle({ operation: match!.operation, request: valid!, preference, session }) };
      if (preference.status !== undefined) answer = { handled: preferenceApplied(answer.handled, preference.status) };
      if (answer.handled.cacheKey !== undefined) serialised = mount.cache.get(answer.handled.cacheKey);
    }
  } catch (error) {
    answer = { handled: toErrorResponse(error, pipeline.logger) };
    // Issue 20: refused before its session was known (a 401, a 404 before the key was checked, a 413): the
    // exchange goes into the journal of the session it names only when it carries a valid key; into none otherwise.
    session ??= selected && refusedSession(pipeline, request, mount, selected.name);
  }
  if ('forwarded' in answer) {
    const judged = judgeForwarded(mount!, operation, answer.forwarded, violations, id, cors);
    return observeProxied(
      pipeline,
      session,
      request,
      exchangeOf(request, id, startedAt, started, body),
      judged.response,
      {
        operation,
        violations,
        body: judged.body,
        forwarded: true,
      },
    );
  }
  const response = answer.handled;
  if (!serialised) {
    const checked = validateResponse((mount ?? pipeline.mounts[0])!.compiled, operation, response, pipeline.logger);
    serialised = serialiseResponse(checked);
    // Only a response that passed validation unchanged is remembered under its key.
    if (checked === response && response.cacheKey !== undefined) mount?.cache.remember(response.cacheKey, serialised);
  }

  serialised.sentHeaders ??= {
    ...serialised.headers,
    ...commonHeaders,
    ...(operation ? mount?.operationHeaders.get(operation) : undefined),
  };
  const headers: Record<string, string> = { ...serialised.sentHeaders, 'x-request-id': id };
  if (cors) Object.assign(headers, cors);
  if (serialised.status === 401 && headers['www-authenticate'] === undefined) {
    headers['www-authenticate'] = bearerChallenge;
  }
  if (violations.length > 0) headers['petstore-violations'] = String(violations.length);
  const plain: PlainResponse = { status: serialised.status, headers };
  if (serialised.body) plain.body = serialised.body;

  const exchange = exchangeOf(request, id, startedAt, started, body, mount?.admin === true);
  if (mount?.upstream) {
    // The proxy answered itself (an unreachable upstream, or --enforce): still an exchange to report.
    return observeProxied(pipeline, session, request, exchange, plain, {
      operation,
      violations,
      body: undefined,
      forwarded: false,
    });
  }
  return observe(pipeline, session && journals(request, mount, operation) ? session : undefined, exchange, plain);
}

/**
 * The session whose journal keeps a request refused before its session was
 * known: in the proxy's API, the session it names if it exists (the upstream
 * judges keys); in the mock, the one it names (made if need be) when the
 * request carries a valid key, and none otherwise, so that a client without a
 * key can neither make a session nor write into one's journal.
 */
function refusedSession(
  pipeline: Pipeline,
  request: PlainRequest,
  mount: Mount | undefined,
  name: string,
): Session | undefined {
  if (mount?.upstream) return pipeline.session(name, false) ?? pipeline.session('default', false);
  try {
    pipeline.authenticate(headerValue(request, 'authorization'));
  } catch {
    return undefined;
  }
  return pipeline.session(name, true);
}

/**
 * The route of the request. The mock refuses a path or method the document
 * does not have (404, 405); the proxy reports it and forwards it all the same.
 */
function findRoute(mount: Mount, request: PlainRequest, path: string, violations: ProxyViolation[]) {
  try {
    return matchRoute(mount.compiled, request.method, path, { basePath: mount.basePath, path: request.path });
  } catch (error) {
    if (!mount.upstream || !(error instanceof HttpError)) throw error;
    violations.push({ where: 'request', rule: 'documented-operation', message: error.message });
    return undefined;
  }
}

/**
 * The body with its Content-Encoding undone. The mock refuses a body it
 * cannot decode (415, 400, 413); the proxy reports it (null: nothing more to
 * judge in it) and forwards the bytes as they came, for the upstream to judge.
 */
async function decodeRequestBody(
  request: PlainRequest,
  body: Uint8Array | undefined,
  pipeline: Pipeline,
  upstream: Upstream | undefined,
  violations: ProxyViolation[],
): Promise<Uint8Array | undefined | null> {
  try {
    return await decodeBody(request, body, pipeline.inflate, pipeline.bodyLimit);
  } catch (error) {
    if (!upstream || upstream.enforce || !(error instanceof HttpError)) throw error;
    violations.push({ where: 'request', rule: error.code, message: error.message });
    return null;
  }
}

/**
 * The request, checked against its operation. The mock (and the proxy with
 * --enforce) refuses an invalid one with a 400 or 415; the proxy reports it
 * and forwards it as it came.
 */
function checkRequest(
  match: RouteMatch,
  request: PlainRequest,
  body: Uint8Array | undefined,
  upstream: Upstream | undefined,
  violations: ProxyViolation[],
): ValidRequest | undefined {
  try {
    return validateRequest(match.operation, {
      pathParams: match.pathParams,
      search: request.query,
      headers: request.headers,
      body,
    });
  } catch (error) {
    if (!upstream || upstream.enforce || !(error instanceof HttpError)) throw error;
    violations.push({ where: 'request', rule: error.code, message: error.message });
    return undefined;
  }
}

/** `Preference-Applied` on the documented example a `Prefer: code=` asked for. */
function preferenceApplied(response: HandlerResponse, status: number): HandlerResponse {
  return { ...response, headers: { ...response.headers, 'preference-applied': `code=${status}` } };
}

/** Headers that describe one hop, not the message: never passed on (RFC 9110 §7.6.1). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
]);

/**
 * The upstream's answer, judged by the one rule set on its decoded bytes and
 * passed on unchanged (its own headers but hop-by-hop ones, its body byte for
 * byte) with `Petstore-Violations: N` when anything broke the document. With
 * --enforce, an answer that breaks the document becomes `502
 * upstream_violation` naming the first violation.
 */
function judgeForwarded(
  mount: Mount,
  operation: CompiledOperation | undefined,
  forwarded: ForwardedResponse,
  violations: ProxyViolation[],
  id: string,
  cors: Record<string, string> | undefined,
): { response: PlainResponse; body: unknown } {
  // Issue 20 (minimal, for the lead's rework): an answer the forwarder did not decode (larger than the proxy
  // judges, or not valid data for its Content-Encoding) passes on unjudged, with a finding that says why.
  const { violations: found, body } = forwarded.decoded
    ? judgeReceivedResponse(
        mount.compiled,
        operation,
        {
          status: forwarded.status,
          contentType: headerText(forwarded.headers['content-type']),
          text: new TextDecoder().decode(forwarded.decoded),
        },
        // An unknown route has no documented statuses to hold the answer to; its 404 or 405 is judged as an Error.
        { allowUndocumentedStatus: operation === undefined },
      )
    : { violations: [], body: undefined };
  violations.push(...responseViolations(found));
  const { unjudged } = forwarded;
  if (unjudged) violations.push({ where: 'response', rule: unjudged.rule, message: unjudged.reason });
  const [first] = found;
  if (mount.upstream?.enforce && first) {
    const refusal = new HttpError('upstream_violation', `the upstream's answer breaks the document: ${first.message}`);
    const text = new TextEncoder().encode(JSON.stringify(errorBody(refusal)));
    const response: PlainResponse = {
      status: refusal.status,
      headers: {
        'content-type': 'application/json',
        'content-length': String(text.length),
        ...commonHeaders,
        'x-request-id': id,
        'petstore-violations': String(violations.length),
        ...cors,
      },
      body: text,
    };
    return { response, body };
  }
  // A repeated header (Set-Cookie) stays a list, written as the header repeated (issue 20).
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(forwarded.headers)) if (!hopByHop.has(name)) headers[name] = value;
  headers['content-length'] = String(forwarded.body.length);
  if (violations.length > 0) headers['petstore-violations'] = String(violations.length);
  if (cors) Object.assign(headers, cors);
  return { response: { status: forwarded.status, headers, body: forwarded.body }, body };
}

/** One header's value as text: a repeated one joined with `, `. */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function broken(fault: NetworkFault): PlainResponse {
  return { status: 0, headers: {}, fault };
}

function fullPath(request: PlainRequest): string {
  return request.query === '' ? request.path : `${request.path}?${request.query}`;
}

/**
 * Whether an exchange goes into the journal: every call of the API, and the
 * admin calls that change something (not reads, and not an operation marked
 * `x-petstore-journal: false`, such as emptying the journal itself).
 */
function journals(request: PlainRequest, mount: Mount | undefined, operation: CompiledOperation | undefined): boolean {
  if (!mount?.admin) return true;
  if (request.method === 'GET') return false;
  return (operation?.definition as Record<string, unknown> | undefined)?.['x-petstore-journal'] !== false;
}

interface Exchanged {
  request: PlainRequest;
  id: string;
  startedAt: number;
  started: number;
  body: Uint8Array | undefined;
  admin: boolean;
}

function exchangeOf(
  request: PlainRequest,
  id: string,
  startedAt: number,
  started: number,
  body: Uint8Array | undefined,
  admin = false,
): Exchanged {
  return { request, id, startedAt, started, body, admin };
}

/** The proxy's last point: the judged exchange goes to its report, then to the journal and the log like any other. */
function observeProxied(
  pipeline: Pipeline,
  session: Session | undefined,
  request: PlainRequest,
  exchange: Exchanged,
  response: PlainResponse,
  judged: { operation: CompiledOperation | undefined; violations: ProxyViolation[]; body: unknown; forwarded: boolean },
): PlainResponse {
  const upstream = pipeline.mounts.find((mount) => mount.upstream)?.upstream;
  upstream?.observe({
    operationId: judged.operation?.operationId,
    method: request.method,
    path: request.path,
    query: request.query,
    status: response.status,
    ownAnswer: !judged.forwarded,
    violations: judged.violations,
    body: judged.body,
  });
  return observe(pipeline, session, exchange, response);
}

/** The pipeline's last point: the exchange goes into the session's journal (when there is one) and the log. */
function observe(
  pipeline: Pipeline,
  session: Session | undefined,
  exchange: Exchanged,
  response: PlainResponse,
): PlainResponse {
  const { request, id } = exchange;
  const durationMs = performance.now() - exchange.started;
  if (session) record(session.journal, request, response, { ...exchange, durationMs });
  if (pipeline.logRequests) {
    pipeline.logger.info(
      {
        req: { id, method: request.method, url: fullPath(request) },
        res: response.fault ? { fault: response.fault } : { statusCode: response.status },
        responseTime: Math.round(durationMs * 100) / 100,
      },
      'request completed',
    );
  }
  return response;
}

/** Keeps the exchange in the session's journal. */
function record(
  journal: RequestJournal,
  request: PlainRequest,
  response: PlainResponse,
  facts: Exchanged & { durationMs: number },
): void {
  journal.record({
    id: facts.id,
    startedAt: facts.startedAt,
    method: request.method,
    url: fullPath(request),
    headers: request.headers,
    body: facts.body,
    status: response.status,
    responseBody: response.body,
    durationMs: facts.durationMs,
    admin: facts.admin,
    ...(response.fault ? { fault: response.fault } : {}),
  });
}
