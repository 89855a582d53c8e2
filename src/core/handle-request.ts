import { toErrorResponse } from './errors/to-error-response.js';
import type { HandlerResponse } from './handlers/handler-types.js';
import type { Inflate, InflateBudget, InflateShare } from './http/inflate.js';
import { headerValue, type NetworkFault, type PlainRequest, type PlainResponse } from './http/plain-http.js';
import type { MockLogger } from './mock-logger.js';
import { classifyRequest } from './oracle/classify-request.js';
import { fails, type Finding } from './oracle/finding.js';
import type { CompiledOperation } from './openapi/compile-document.js';
import { applyLatency } from './pipeline/apply-latency.js';
import { assignRequestId } from './pipeline/assign-request-id.js';
import { bearerChallenge } from './pipeline/authenticate.js';
import type { HostCheck } from './pipeline/check-host.js';
import { corsHeaders, preflightResponse, type CorsPolicy } from './pipeline/cors-policy.js';
import { decodeBody } from './pipeline/decode-body.js';
import { injectFault } from './pipeline/inject-fault.js';
import { matchRoute } from './pipeline/match-route.js';
import { type EndedExchange, observeExchange, type ReportedExchange } from './pipeline/observe-exchange.js';
import { readBody } from './pipeline/read-body.js';
import { attempt, attemptLater } from './pipeline/request-policy.js';
import { type Answer, type Mount, selectMount } from './pipeline/select-mount.js';
import { serialiseResponse, type SerialisedResponse } from './pipeline/serialise-response.js';
import { servePublicFile, type PublicFile } from './pipeline/serve-public-file.js';
import { validateResponse } from './pipeline/validate-response.js';
import type { Session } from './sessions/session.js';
import type { SessionChoice } from './sessions/session-registry.js';
import { wallClockAt } from './wall-clock-at.js';

/** What the pipeline runs with: everything is built once, at start-up (see create-mock-core.ts). */
export interface Pipeline {
  /** The APIs served, by base path: the animals API (the mock's, or the proxy's) and the admin API. */
  mounts: readonly Mount[];
  /** Files served to anyone, by path: the document, and the pages in Node. */
  publicFiles: ReadonlyMap<string, PublicFile>;
  /** The session name a request gives, checked (and the problem with it, if any); nothing is made. */
  selectSession(request: PlainRequest): SessionChoice;
  /**
   * The session of that name: made if need be when `make` (the request is
   * authenticated), otherwise one that exists already, or the default one.
   */
  session(name: string, make: boolean): Session;
  /** Whether a request carries a key the mock accepts (to journal a keyed request refused early). */
  carriesKey(request: PlainRequest): boolean;
  /** The Host check (none in-process: the page's own origin owns the mock there). */
  checkHost: HostCheck | undefined;
  /** Which origins may call, and what a preflight allows. */
  cors: CorsPolicy;
  inflate: Inflate;
  /** The bytes every request body being inflated holds together (issue 36). */
  inflateBudget: InflateBudget;
  bodyLimit: number;
  logger: MockLogger;
  /** Whether the info-level request log is on (checked once, not per request). */
  logRequests: boolean;
  /** Pending while the first scenario is generated (in a browser, Faker loads on demand). */
  ready: Promise<void> | undefined;
  /** Told of every judged exchange of the API (the proxy's report and recording). */
  onExchange?: (exchange: ReportedExchange) => void;
}

/** Headers every response carries: no sniffing, no caching of a stateful mock's answers. */
const commonHeaders = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

/** How far a request got: what the answer's headers, the journal and the report need to know. */
interface Progress {
  mount?: Mount;
  operation?: CompiledOperation;
  session?: Session;
  body?: Uint8Array;
  /** What the oracle found: the request's problems let through, and the upstream's answer judged. */
  findings: Finding[];
}

/**
 * The request pipeline, in the order every request meets it. Each stage is a
 * function in ./pipeline/ (or names its folder), and each throws an
 * `HttpError` to answer an error; whatever is thrown becomes an Error body
 * in `toErrorResponse` and is judged and sent like any answer.
 *
 *   request id → Host (403 for a name the mock does not answer to, 400 for
 *   none) → CORS (403 for an origin not allowed; a preflight is answered
 *   here) → public files (the document, the pages) → mount (/v1, /__admin;
 *   404 elsewhere) → body size (413) → route (404, 405) → authenticate (401,
 *   unless the operation's security is empty) → session (Petstore-Session;
 *   400 for a bad name) →
 *   latency (the API's calls only) → injected fault → Content-Encoding (415,
 *   400; 413 beyond the bytes every body being inflated shares) → classify the request by the document (400, 415) → the middle:
 *   the handler (Prefer may ask for a documented example), or the upstream,
 *   whose answer comes back judged by the oracle → the mock's own answer
 *   judged (500 when it breaks the document) and serialised (cached by the
 *   handler's key) → headers → journal, log and report.
 *
 * Each mount's policy says what becomes of a problem with the request: the
 * mock refuses it; the proxy notes it as a request-side finding and lets the
 * request through as it came (or, with --enforce, refuses it).
 */
export async function handleRequest(pipeline: Pipeline, request: PlainRequest): Promise<PlainResponse> {
  const started = performance.now();
  const startedAt = wallClockAt(started);
  const id = assignRequestId(request);
  // A Host the mock does not answer to (DNS rebinding) or an origin it does not allow is refused before anything
  // else answers, preflights and public files included: thrown first below, it takes the one error path and
  // changes nothing (no session, no journal).
  let refused: unknown;
  let cors: Record<string, string> | undefined;
  try {
    pipeline.checkHost?.(request);
    cors = corsHeaders(pipeline.cors, request);
  } catch (error) {
    refused = error;
  }
  const preflight = cors && preflightResponse(pipeline.cors, request, cors);
  if (preflight) return { ...preflight, headers: { ...preflight.headers, 'x-request-id': id } };
  const file = refused === undefined ? servePublicFile(pipeline.publicFiles, request) : undefined;
  if (file) return { ...file, headers: { ...file.headers, ...commonHeaders, 'x-request-id': id, ...cors } };

  const progress: Progress = { findings: [] };
  let choice: SessionChoice | undefined;
  // What this request's body holds of the inflate budget, given back once it is answered.
  let inflated: InflateShare | undefined;
  let answer: Answer;
  try {
    if (refused !== undefined) throw refused;
    if (pipeline.ready) await pipeline.ready;
    // A bad session name is told only once the client is authenticated, like any problem reading the body but its size.
    choice = pipeline.selectSession(request);
    const under = selectMount(pipeline.mounts, request.method, request.path);
    const mount = (progress.mount = under.mount);
    const { policy, compiled } = mount;
    const { findings } = progress;
    // An over-size body is refused at once; any other problem reading it waits for the key.
    let unreadable: unknown;
    // A request without a body (most of them) skips the stages that read and decode one, and their awaits.
    const sent =
      request.body === undefined
        ? undefined
        : await readBody(request, pipeline.bodyLimit).catch((error: unknown) => {
            if ((error as { code?: unknown }).code === 'payload_too_large') throw error;
            unreadable = error;
            return undefined;
          });
    progress.body = sent;
    const match = attempt(policy, findings, () =>
      matchRoute(compiled, request.method, under.path, { basePath: mount.basePath, path: request.path }),
    );
    const operation = (progress.operation = match?.operation);
    if (operation?.secured) mount.authenticate(headerValue(request, 'authorization'));
    if (choice.problem) throw choice.problem;
    // A session is made only for an authenticated request, so that a client without a key can neither make
    // sessions nor evict those of keyed clients; an open operation (health) uses one that exists.
    const session = (progress.session = pipeline.session(choice.name, operation?.secured === true));
    // Latency is the API's: health, the admin API and refusals answer at once.
    if (!mount.admin && session.latency) await applyLatency(session.latency, session.random);
    const fault = mount.admin || !operation ? undefined : injectFault(session, operation);
    if (fault) return observeExchange(pipeline, session, ended(request, id, startedAt, started, sent), broken(fault));
    if (unreadable !== undefined) throw unreadable;
    const decoded =
      sent === undefined
        ? undefined
        : await attemptLater(policy, findings, () =>
            decodeBody(request, sent, pipeline.inflate, pipeline.bodyLimit, (bytes) =>
              (inflated ??= pipeline.inflateBudget.share()).take(bytes),
            ),
          );
    // A body the policy let through undecoded (the proxy) is forwarded as it came, but not classified.
    const readable = sent === undefined || decoded !== undefined;
    if (readable) progress.body = decoded;
    const classified =
      match && readable
        ? classifyRequest({
            operation: match.operation,
            pathParams: match.pathParams,
            query: request.query,
            headers: request.headers,
            body: decoded,
          })
        : undefined;
    if (classified?.problem) policy.meet(classified.problem, findings);
    answer = await mount.middle({ operation, request, sent, classified, session, findings });
  } catch (error) {
    answer = { kind: 'handled', response: toErrorResponse(error, pipeline.logger) };
    // Refused before its session was known (an unknown path, a 413): journaled in the session it names only when
    // it carries a valid key, so that a client without one writes into no session's journal.
    if (!progress.session && choice && !choice.problem && pipeline.carriesKey(request)) {
      progress.session = pipeline.session(choice.name, true);
    }
  }
  inflated?.giveBack();

  const { mount, operation } = progress;
  const plain = answer.kind === 'forwarded' ? answer.response : sendHandled(pipeline, progress, answer.response);
  // A forwarded answer's headers are its own, built for this request; a handled one's may be shared with later ones.
  const headers: Record<string, string | string[]> = answer.kind === 'forwarded' ? plain.headers : { ...plain.headers };
  headers['x-request-id'] = id;
  if (cors) Object.assign(headers, cors);
  if (plain.status === 401 && headers['www-authenticate'] === undefined) headers['www-authenticate'] = bearerChallenge;
  let failed = 0;
  for (const found of progress.findings) if (fails(found)) failed++;
  if (failed > 0) headers['petstore-violations'] = String(failed);
  // Either answer is a new object, built for this request: its headers are put in place, not copied again.
  const response: PlainResponse = plain;
  response.headers = headers;

  const exchange = ended(request, id, startedAt, started, progress.body, mount?.admin === true);
  if (mount && !mount.admin && pipeline.onExchange) {
    pipeline.onExchange({
      operationId: operation?.operationId,
      method: request.method,
      path: request.path,
      query: request.query,
      status: response.status,
      ownAnswer: answer.kind === 'handled',
      findings: progress.findings,
      body: answer.kind === 'forwarded' ? answer.body : undefined,
    });
  }
  const session = progress.session && journals(request, mount, operation) ? progress.session : undefined;
  return observeExchange(pipeline, session, exchange, response);
}

/**
 * A handled answer (a handler's, or an Error body) as it is sent: judged by
 * the document first (the mock's own bug becomes a 500 naming it), then
 * serialised, exactly, with the headers of its operation. An answer the
 * handler keyed is judged and serialised once, then served from the cache.
 */
function sendHandled(pipeline: Pipeline, progress: Progress, response: HandlerResponse): PlainResponse {
  const { operation } = progress;
  const mount = progress.mount ?? pipeline.mounts[0];
  let serialised: SerialisedResponse | undefined =
    response.cacheKey === undefined ? undefined : mount?.cache.get(response.cacheKey);
  if (!serialised) {
    const checked = mount ? validateResponse(mount.compiled, operation, response, pipeline.logger) : response;
    serialised = serialiseResponse(checked);
    // Only a response that passed validation unchanged is remembered under its key.
    if (checked === response && response.cacheKey !== undefined) mount?.cache.remember(response.cacheKey, serialised);
  }
  serialised.sentHeaders ??= {
    ...serialised.headers,
    ...commonHeaders,
    ...(operation ? mount?.operationHeaders.get(operation) : undefined),
  };
  const plain: PlainResponse = { status: serialised.status, headers: serialised.sentHeaders };
  if (serialised.body) plain.body = serialised.body;
  return plain;
}

function broken(fault: NetworkFault): PlainResponse {
  return { status: 0, headers: {}, fault };
}

/**
 * Whether an exchange goes into the journal: every call of the API, and the
 * admin calls that change something (not reads, and not an operation marked
 * `x-petstore-journal: false`, such as emptying the journal itself). A
 * request that never got a session (no key, a bad session name) goes into none.
 */
function journals(request: PlainRequest, mount: Mount | undefined, operation: CompiledOperation | undefined): boolean {
  if (!mount?.admin) return true;
  if (request.method === 'GET') return false;
  return (operation?.definition as Record<string, unknown> | undefined)?.['x-petstore-journal'] !== false;
}

function ended(
  request: PlainRequest,
  id: string,
  startedAt: number,
  started: number,
  body: Uint8Array | undefined,
  admin = false,
): EndedExchange {
  return { request, id, startedAt, started, body, admin };
}
