import { HttpError } from './errors/http-error.js';
import { toErrorResponse } from './errors/to-error-response.js';
import type { Inflate, InflateBudget, InflateShare } from './http/inflate.js';
import { oneValue, type NetworkFault, type PlainRequest, type PlainResponse } from './http/plain-http.js';
import { classifyRequest } from './oracle/classify-request.js';
import { fails, type Finding } from './oracle/finding.js';
import type { CompiledOperation } from './openapi/compile-document.js';
import { applyLatency } from './pipeline/apply-latency.js';
import { assignRequestId } from './pipeline/assign-request-id.js';
import { bearerChallenge } from './pipeline/authenticate.js';
import type { HostCheck } from './pipeline/check-host.js';
import { commonHeaders } from './pipeline/common-headers.js';
import { corsHeaders, preflightResponse, type CorsPolicy } from './pipeline/cors-policy.js';
import { decodeBody } from './pipeline/decode-body.js';
import { injectFault } from './pipeline/inject-fault.js';
import { matchRoute, type RouteMatch } from './pipeline/match-route.js';
import { observeExchange, type ReportedExchange } from './pipeline/observe-exchange.js';
import { operationRemoved } from './pipeline/operation-removed.js';
import { readBody } from './pipeline/read-body.js';
import {
  type Answer,
  type MiddleInput,
  type Mount,
  type MountedPath,
  noPlan,
  type Plan,
  selectMount,
} from './pipeline/select-mount.js';
import { serialiseResponse, withIdPlace, type SerialisedResponse } from './pipeline/serialise-response.js';
import { servePublicFile, type PublicFile } from './pipeline/serve-public-file.js';
import { validateResponse } from './pipeline/validate-response.js';
import type { SessionRef, SettledRequest, StateStore } from './state/state-store.js';
import type { MockLogger } from './support/mock-logger.js';
import { wallClockAt } from './support/wall-clock-at.js';
import type { Awaitable } from './types/awaitable.js';
import type { HandlerResponse } from './types/handler-response.js';

/** What the pipeline runs with: everything is built once, at start-up (see create-mock-core.ts). */
export interface Pipeline {
  /** The APIs served, by base path: the animals API (the mock's, or the proxy's) and the admin API. */
  mounts: readonly Mount[];
  /** Files served to anyone, by path: the document, and the pages in Node. */
  publicFiles: ReadonlyMap<string, PublicFile>;
  /** The session name a request gives, checked (and the problem with it, if any); nothing is made. */
  selectSession(request: PlainRequest): { name: string; problem?: HttpError };
  /** Everything the mock shares (sessions, stores, faults, latency, clocks, journals): one call per request. */
  state: StateStore;
  /** Whether an authenticated request makes the session it names (the proxy makes none: the upstream's are its own). */
  makesSessions: boolean;
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

/** The request as it arrived: what every answer's headers, the journal and the log need. */
interface Arrival {
  pipeline: Pipeline;
  request: PlainRequest;
  id: string;
  started: number;
  /** The CORS headers of its origin: shared by the requests of that origin, never changed. */
  cors: Readonly<Record<string, string>> | undefined;
}

/** How far a request got when it was answered: what its headers, the report and the journal need of it. */
interface Reached {
  mount: Mount | undefined;
  operation: CompiledOperation | undefined;
  /** The body as journaled: decoded when it could be, as sent otherwise. */
  body: Uint8Array | undefined;
  /** What the oracle found: the request's problems let through, and the upstream's answer judged. */
  findings: Finding[];
  /** The session it is journaled in; undefined for none. */
  session: SessionRef | undefined;
}

/** A request read and under a mount, as it goes through the stages after: what each stage hands the next. */
interface Exchange {
  arrival: Arrival;
  read: ReadRequest;
  mount: Mount;
  /** What its body holds of the bytes every body being inflated shares, given back once it is answered. */
  inflated: InflateShare | undefined;
  decoded: DecodedBody;
  /** The request's own problem, answered after its fault (under the proxy's policy, only noted). */
  problem: unknown;
  input: MiddleInput | undefined;
  plan: Plan;
}

/**
 * The request pipeline, in the order every request meets it. Each stage is a
 * function in ./pipeline/ (or names its folder); a stage refuses a request
 * with an `HttpError`, and every refusal becomes an Error body in
 * `toErrorResponse`, judged and sent like any answer.
 *
 *   request id → Host and origin (403; a preflight is answered here) →
 *   public files → mount, body size (413), route (404, 405), key (401),
 *   session name (400) → Content-Encoding (413 beyond the bytes every body
 *   being inflated shares), the request classified by the document → the
 *   middle's plan → the one call to the shared state (session,
 *   latency, fault, clock, the handler's store action) → latency waited →
 *   the fault, the request's own problem (400, 415), the sunset (410), the
 *   plan's (Prefer) and the store's refusals, in that order → the middle's
 *   answer (the handler's, an example, the fallback's, the upstream's) →
 *   judged (500 when it breaks the document), serialised, headers → report,
 *   journal and log. A read the mount has answered at the store's revision
 *   is not read again: the store's call finds its answer in the mount's
 *   cache, judged and serialised when it was first given, and every stage
 *   around it runs as for any request.
 *
 * Each mount's policy says what becomes of a problem with the request: the
 * mock refuses it; the proxy notes it as a request-side finding and lets the
 * request through as it came (or, with --enforce, refuses it).
 *
 * The answer is returned itself, not a promise, when every stage has what it
 * needs at once (the memory state, no latency, a body already read or none,
 * nothing to inflate, a handler's answer): the node:http adapter then writes
 * it in the same turn, with no promise and no turn of the microtask queue.
 * Where a stage answers later (a body still arriving, the Redis state, a
 * latency, the upstream, the fallback mocker), `after` hands its value to the
 * next stage once it is there. The stages' functions follow in their order,
 * from here to `answerSettled`.
 */
export function handleRequest(pipeline: Pipeline, request: PlainRequest): Awaitable<PlainResponse> {
  const arrival: Arrival = {
    pipeline,
    request,
    id: assignRequestId(request),
    started: performance.now(),
    cors: undefined,
  };
  try {
    pipeline.checkHost?.(request);
    arrival.cors = corsHeaders(pipeline.cors, request);
  } catch (refusal) {
    // A Host the mock does not answer to (DNS rebinding) or an origin it does not allow: refused before anything
    // else answers, preflights and public files included, in no session and no journal.
    return respond(arrival, unreached(), refused(pipeline, refusal));
  }
  // Only a request that arrives before the first scenario is loaded waits for it.
  if (!pipeline.ready) return admit(arrival);
  return pipeline.ready.then(
    () => admit(arrival),
    (refusal: unknown) => respond(arrival, unreached(), refused(pipeline, refusal)),
  );
}

/** A preflight and a public file are answered here; any other request is read: mount, body, route, key, session name. */
function admit(arrival: Arrival): Awaitable<PlainResponse> {
  const { pipeline, request } = arrival;
  // A request from no other origin to no public file (most requests) calls neither: it compiles neither.
  if (arrival.cors !== undefined || pipeline.publicFiles.has(request.path)) {
    const early = answerEarly(arrival);
    if (early) return early;
  }
  return after(arrival, readRequest(pipeline, request), answerRead);
}

/**
 * What a preflight waits for: a policy other than `any` lists the methods and
 * headers of every mount's document, the admin API's included, which is
 * imported on the first request that needs it.
 */
function preflightLoading(arrival: Arrival): Promise<void> | undefined {
  const { pipeline, request } = arrival;
  if (arrival.cors === undefined || request.method !== 'OPTIONS' || pipeline.cors.any) return undefined;
  for (const mount of pipeline.mounts) {
    const loading = mount.loading;
    if (loading) return loading;
  }
  return undefined;
}

/**
 * The answer to a preflight, or a public file, with this request's headers
 * (once what the preflight waits for is there); undefined for any other request.
 */
function answerEarly(arrival: Arrival): Awaitable<PlainResponse> | undefined {
  const { pipeline, request, id, cors } = arrival;
  const loading = preflightLoading(arrival);
  if (loading) {
    return loading.then(
      () => admit(arrival),
      (refusal: unknown) => respond(arrival, unreached(), refused(pipeline, refusal)),
    );
  }
  const preflight = cors && preflightResponse(pipeline.cors, request, cors);
  if (preflight) return { ...preflight, headers: { ...preflight.headers, 'x-request-id': id } };
  const file = servePublicFile(pipeline.publicFiles, request);
  if (file) return { ...file, headers: { ...file.headers, ...commonHeaders, 'x-request-id': id, ...cors } };
  return undefined;
}

/**
 * A request read: refused with what was known then, or taken through the
 * stages after. From here on, anything thrown, at once or later, is the
 * mock's bug: logged and answered 500. The request's share of the bytes
 * being inflated is given back once it is answered.
 */
function answerRead(arrival: Arrival, read: ReadRequest): Awaitable<PlainResponse> {
  const { mount } = read;
  if (read.refusal || !mount) return refuseRead(arrival, read, read.refusal);
  const exchange: Exchange = {
    arrival,
    read,
    mount,
    inflated: undefined,
    decoded: bodiless,
    problem: undefined,
    input: undefined,
    plan: noPlan,
  };
  let answering: Awaitable<PlainResponse>;
  try {
    answering = decode(exchange);
  } catch (bug) {
    // Every refusal is answered where it arises: what gets here is the mock's bug, logged and answered 500.
    answering = refuseRead(arrival, read, bug);
  }
  if (!(answering instanceof Promise)) {
    // Given back here rather than through givenBack: a request with nothing to inflate calls nothing more.
    exchange.inflated?.giveBack();
    return answering;
  }
  return answering.then(
    (response) => givenBack(exchange, response),
    (bug: unknown) => after(exchange, refuseRead(arrival, read, bug), givenBack),
  );
}

/** The answer, once the request's share of the inflate budget is given back. */
function givenBack(exchange: Exchange, response: PlainResponse): PlainResponse {
  exchange.inflated?.giveBack();
  return response;
}

/** Content-Encoding undone, each piece inflated charged to the request's share of the budget. */
function decode(exchange: Exchange): Awaitable<PlainResponse> {
  const { arrival, read, mount } = exchange;
  const { pipeline } = arrival;
  const decoding =
    read.sent === undefined || read.unreadable
      ? bodiless
      : decodeRequest(pipeline, read, mount, (bytes) =>
          (exchange.inflated ??= pipeline.inflateBudget.share()).take(bytes),
        );
  return after(exchange, decoding, settle);
}

/**
 * The request classified by the document, its problem kept for after its
 * fault, the middle's plan, and the one call to the shared state.
 */
function settle(exchange: Exchange, decoded: DecodedBody): Awaitable<PlainResponse> {
  const { arrival, read, mount } = exchange;
  const { pipeline, request } = arrival;
  const { match, findings } = read;
  const operation = match?.operation;
  const classified =
    match && decoded.readable && read.unreadable === undefined
      ? classifyRequest({
          operation: match.operation,
          pathParams: match.pathParams,
          query: request.query,
          headers: request.headers,
          body: decoded.body,
        })
      : undefined;
  // The request's own problem waits for its fault, which answers first; under the proxy's policy it is only noted.
  const problem =
    read.unreadable ?? decoded.problem ?? (classified?.problem && mount.policy.meet(classified.problem, findings));
  const input: MiddleInput = { operation, request, sent: read.sent, classified, findings };
  const plan = problem ? noPlan : mount.middle.plan(input);
  exchange.decoded = decoded;
  exchange.problem = problem;
  exchange.input = input;
  exchange.plan = plan;
  const settling = pipeline.state.settle({
    session: read.session,
    make: pipeline.makesSessions && operation?.secured === true,
    operationId: mount.admin || !operation ? undefined : operation.operationId,
    latency: !mount.admin,
    sunset: plan.sunset,
    action: plan.action,
  });
  return after(exchange, settling, waitLatency);
}

/** The latency the state gave the request, waited after the state's call (a write lands before it). */
function waitLatency(exchange: Exchange, settled: SettledRequest): Awaitable<PlainResponse> {
  // Most requests have none: applyLatency is not even called (a process's first request compiles what it calls).
  if (!(settled.delayMs > 0)) return answerSettled(exchange, settled);
  return (applyLatency(settled.delayMs) as Promise<void>).then(() => answerSettled(exchange, settled));
}

/**
 * The refusals, in their order (the fault, the request's own problem, the
 * sunset, the plan's and the store's), else the middle's answer; then the
 * answer sent.
 */
function answerSettled(exchange: Exchange, settled: SettledRequest): Awaitable<PlainResponse> {
  const { arrival, read, mount, decoded, problem, plan } = exchange;
  const { pipeline } = arrival;
  const operation = read.match?.operation;
  const { session, fault } = settled;
  // A fault answers before the body is decoded, as far as the journal can tell: it keeps the body as sent.
  const body = decoded.readable && !fault ? decoded.body : read.sent;
  const reached: Reached = { mount, operation, body, findings: read.findings, session };
  if (fault || problem || settled.removed || plan.refusal || settled.failure) {
    const refusing = refuseSettled(exchange, settled, reached);
    if (refusing) return refusing;
  }
  let answering: Awaitable<Answer>;
  try {
    answering = mount.middle.answer(exchange.input as MiddleInput, plan, settled);
  } catch (error) {
    answering = refused(pipeline, error);
  }
  if (!(answering instanceof Promise)) return respond(arrival, reached, answering);
  return answering.then(
    (answer) => respond(arrival, reached, answer),
    (error: unknown) => respond(arrival, reached, refused(pipeline, error)),
  );
}

/**
 * The refusal of a settled request, if any, in its order: its fault, its own
 * problem, the sunset, the plan's and the store's. Called only when one of
 * them is there (a plain request compiles none of this).
 */
function refuseSettled(exchange: Exchange, settled: SettledRequest, reached: Reached): PlainResponse | undefined {
  const { arrival, mount, problem, plan } = exchange;
  const { pipeline } = arrival;
  const { operation } = reached;
  const { fault } = settled;
  if (fault && operation) {
    const injected = injectFault(fault, operation);
    if (!(injected instanceof HttpError)) return brokenConnection(arrival, reached, injected);
    return respond(arrival, reached, refused(pipeline, injected));
  }
  if (problem) return respond(arrival, reached, refused(pipeline, problem));
  if (settled.removed && operation) {
    return respond(arrival, reached, refused(pipeline, operationRemoved(mount.compiled, operation)));
  }
  const refusal = plan.refusal ?? settled.failure;
  if (refusal) return respond(arrival, reached, refused(pipeline, refusal));
  return undefined;
}

/** `next(context, value)` at once when the value is there (no promise, no turn of the queue); once it is, otherwise. */
function after<C, T, R>(context: C, value: Awaitable<T>, next: (context: C, value: T) => Awaitable<R>): Awaitable<R> {
  if (!(value instanceof Promise)) return next(context, value);
  return value.then((ready) => next(context, ready));
}

/** What the request is, before anything shared is asked: its mount, route, key, session name and body. */
interface ReadRequest {
  request: PlainRequest;
  /** Why it is refused before its session is settled (404, 405, 401, 413, a bad session name). */
  refusal: unknown;
  /** Undefined when the path is under no mount. */
  mount: Mount | undefined;
  match: RouteMatch | undefined;
  /** The session it names (`default` without one). */
  session: string;
  /** The session name is a name (a request refused with a bad one goes into no journal). */
  sessionNamed: boolean;
  /** The body as sent, Content-Encoding kept. */
  sent: Uint8Array | undefined;
  /** A problem reading the body (an aborted upload): answered after the request's fault, like its other problems. */
  unreadable: unknown;
  findings: Finding[];
}

/**
 * The checks a request meets before its session: its mount, the size of its
 * body (413, the one body problem told before the key), its route (under
 * the mount's policy), its key, and its session's name (a bad one is told
 * only to an authenticated client). Never throws: a refusal is returned, with
 * what was known when it came; answers at once for a request without a body
 * or with its bytes already read.
 */
function readRequest(pipeline: Pipeline, request: PlainRequest): ReadRequest | Promise<ReadRequest> {
  const choice = pipeline.selectSession(request);
  const read: ReadRequest = {
    request,
    refusal: choice.problem,
    mount: undefined,
    match: undefined,
    session: choice.name,
    sessionNamed: !choice.problem,
    sent: undefined,
    unreadable: undefined,
    findings: [],
  };
  let under: MountedPath;
  try {
    under = selectMount(pipeline.mounts, request.method, request.path);
  } catch (error) {
    read.refusal = error;
    return read;
  }
  read.mount = under.mount;
  const loading = under.mount.loading;
  if (loading) return readLoaded(pipeline, read, under.path, loading);
  return readUnder(pipeline, read, under.path);
}

/** The request read once its mount's document is there (the admin API's first: its failure to come is a 500). */
function readLoaded(pipeline: Pipeline, read: ReadRequest, path: string, loading: Promise<void>): Promise<ReadRequest> {
  return loading.then(
    () => readUnder(pipeline, read, path),
    (error: unknown) => {
      read.refusal = error;
      return read;
    },
  );
}

/** The body, if any, then the route: at once when there is no body, or its bytes are there already. */
function readUnder(pipeline: Pipeline, read: ReadRequest, path: string): ReadRequest | Promise<ReadRequest> {
  if (read.request.body === undefined) return checkRoute(read, path);
  return readSent(pipeline, read, path);
}

/** The body as sent, read up to the body limit, then the route: at once when its bytes are there already. */
function readSent(pipeline: Pipeline, read: ReadRequest, path: string): ReadRequest | Promise<ReadRequest> {
  let reading: ReturnType<typeof readBody>;
  try {
    reading = readBody(read.request, pipeline.bodyLimit);
  } catch (error) {
    return unread(read, path, error);
  }
  if (!(reading instanceof Promise)) {
    read.sent = reading;
    return checkRoute(read, path);
  }
  return reading.then(
    (sent) => {
      read.sent = sent;
      return checkRoute(read, path);
    },
    (error: unknown) => unread(read, path, error),
  );
}

/** A body that could not be read: a 413 refuses the request at once; any other problem is answered after its fault. */
function unread(read: ReadRequest, path: string, error: unknown): ReadRequest {
  if ((error as { code?: unknown }).code === 'payload_too_large') {
    read.refusal = error;
    return read;
  }
  read.unreadable = error;
  return checkRoute(read, path);
}

/** The route (under the mount's policy), then the key, then the session name's problem, if any. */
function checkRoute(read: ReadRequest, path: string): ReadRequest {
  const { request, mount } = read;
  if (!mount) return read;
  // A bad session name is told only once the client is authenticated; any route or key problem goes first.
  const badName = read.refusal;
  read.refusal = undefined;
  try {
    try {
      read.match = matchRoute(mount.compiled, request.method, path, { basePath: mount.basePath, path: request.path });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const refusal = mount.policy.meet(error, read.findings);
      if (refusal) throw refusal;
    }
    if (read.match?.operation.secured) mount.authenticate(oneValue(request.headers.authorization));
    if (badName) throw badName;
  } catch (error) {
    read.refusal = error;
  }
  return read;
}

/**
 * A request refused before its session was settled (or whose answer met the
 * mock's bug), answered with what was known of it. It is journaled in the
 * session it names only when it carries a valid key (an unknown path, a
 * 413), so that a client without one writes into no session's journal.
 */
function refuseRead(arrival: Arrival, read: ReadRequest, error: unknown): Awaitable<PlainResponse> {
  const { pipeline } = arrival;
  const reached: Reached = {
    mount: read.mount,
    operation: read.match?.operation,
    body: read.sent,
    findings: read.findings,
    session: undefined,
  };
  if (!read.sessionNamed || !pipeline.carriesKey(read.request)) {
    return respond(arrival, reached, refused(pipeline, error));
  }
  const settling = pipeline.state.settle({
    session: read.session,
    make: true,
    operationId: undefined,
    latency: false,
    sunset: undefined,
    action: undefined,
  });
  return after(reached, settling, (named, settled) => {
    named.session = settled.session;
    return respond(arrival, named, refused(pipeline, error));
  });
}

/** What a request without a body decodes to. */
const bodiless = Object.freeze({ body: undefined, readable: true, problem: undefined });

/** A request's body with its Content-Encoding undone, or the problem that stopped it. */
interface DecodedBody {
  body: Uint8Array | undefined;
  readable: boolean;
  problem: HttpError | undefined;
}

/**
 * The body with its Content-Encoding undone, under the mount's policy, each
 * piece inflated charged with `take` (the request's share of the inflate
 * budget): a problem (415, 400, 413) is the request's own, answered after
 * its fault; the proxy notes it and forwards the body as it came,
 * unclassified, except a 413, which every policy refuses. A body with no
 * encoding to undo is answered at once: no promise, no turn of the queue.
 */
function decodeRequest(
  pipeline: Pipeline,
  read: ReadRequest,
  mount: Mount,
  take: (bytes: number) => void,
): Awaitable<DecodedBody> {
  let decoding: Uint8Array | undefined | Promise<Uint8Array | undefined>;
  try {
    decoding = decodeBody(read.request, read.sent, pipeline.inflate, pipeline.bodyLimit, take);
  } catch (error) {
    return undecodable(error, read, mount);
  }
  if (!(decoding instanceof Promise)) return { body: decoding, readable: true, problem: undefined };
  return decoding.then(
    (body): DecodedBody => ({ body, readable: true, problem: undefined }),
    (error: unknown) => undecodable(error, read, mount),
  );
}

/** A body that could not be decoded, under the mount's policy; anything but an `HttpError` is a bug, thrown on. */
function undecodable(error: unknown, read: ReadRequest, mount: Mount): DecodedBody {
  if (!(error instanceof HttpError)) throw error;
  return { body: undefined, readable: false, problem: mount.policy.meet(error, read.findings) };
}

/** Nothing reached: a request refused for its Host or origin. */
function unreached(): Reached {
  return { mount: undefined, operation: undefined, body: undefined, findings: [], session: undefined };
}

/** Anything thrown while answering, as the answer that carries its Error body. */
function refused(pipeline: Pipeline, error: unknown): Answer {
  return { kind: 'handled', response: toErrorResponse(error, pipeline.logger) };
}

/**
 * The answer as it is sent, with the headers of this request (its id, CORS,
 * the challenge of a 401, the count of failing findings), then told to the
 * proxy's report and the journal and log.
 */
function respond(arrival: Arrival, reached: Reached, answer: Answer): PlainResponse {
  const { pipeline, request, id, cors } = arrival;
  const { mount, operation, findings } = reached;
  const plain =
    answer.kind === 'forwarded'
      ? answer.response
      : answer.kind === 'cached'
        ? sendCached(answer.response)
        : sendHandled(pipeline, request, reached, answer.response, answer.revision);
  // Either answer's headers are its own, built for this request: this request's own are put in place.
  const headers = plain.headers;
  headers['x-request-id'] = id;
  if (cors) Object.assign(headers, cors);
  if (plain.status === 401 && headers['www-authenticate'] === undefined) headers['www-authenticate'] = bearerChallenge;
  if (findings.length > 0) countViolations(headers, findings);
  const response: PlainResponse = plain;
  if (mount && !mount.admin && pipeline.onExchange) report(pipeline.onExchange, arrival, reached, answer, response);
  // Every exchange of the API is journaled: `journals` judges only the admin API's.
  const session = reached.session && (!mount?.admin || journals(request, operation)) ? reached.session : undefined;
  return observeExchange(pipeline, session, ended(arrival, reached), response);
}

/** The count of the failing findings, in `Petstore-Violations`, when there are any. */
function countViolations(headers: PlainResponse['headers'], findings: readonly Finding[]): void {
  let failed = 0;
  for (const found of findings) if (fails(found)) failed++;
  if (failed > 0) headers['petstore-violations'] = String(failed);
}

/** The exchange, judged, told to the proxy's report and recording. */
function report(
  onExchange: (exchange: ReportedExchange) => void,
  arrival: Arrival,
  reached: Reached,
  answer: Answer,
  response: PlainResponse,
): void {
  const { request } = arrival;
  onExchange({
    operationId: reached.operation?.operationId,
    method: request.method,
    path: request.path,
    query: request.query,
    status: response.status,
    ownAnswer: answer.kind !== 'forwarded',
    findings: reached.findings,
    body: answer.kind === 'forwarded' ? answer.body : undefined,
  });
}

/** A fault that breaks the connection: the adapter makes it; nothing else of an answer is sent or reported. */
function brokenConnection(arrival: Arrival, reached: Reached, fault: NetworkFault): PlainResponse {
  return observeExchange(arrival.pipeline, reached.session, ended(arrival, reached), { status: 0, headers: {}, fault });
}

/**
 * A handled answer (a handler's, or an Error body) as it is sent: judged by
 * the document first (the mock's own bug becomes a 500 naming it), then
 * serialised, exactly, with the headers of its operation. A read's answer at
 * a `revision` is judged and serialised once, then served from the mount's
 * cache; its headers are copied then, so that this request's own go on the copy.
 */
function sendHandled(
  pipeline: Pipeline,
  request: PlainRequest,
  reached: Reached,
  response: HandlerResponse,
  revision: number | undefined,
): PlainResponse {
  const { operation } = reached;
  const mount = reached.mount ?? pipeline.mounts[0];
  // A read's answer may be there already: the store's call asked at the revision it last saw (Redis), or not at all.
  const cached = revision === undefined || !operation ? undefined : mount?.cache.get(operation, revision, request);
  if (cached) return sendCached(cached);
  const checked = mount ? validateResponse(mount.compiled, operation, response, pipeline.logger) : response;
  const sentWith = (operation ? mount?.operationHeaders.get(operation) : undefined) ?? commonHeaders;
  const serialised = serialiseResponse(checked, sentWith);
  // Only a response that passed validation unchanged is remembered.
  if (checked === response && revision !== undefined && operation && mount) {
    mount.cache.remember(operation, revision, request, serialised);
    return sendCached(serialised);
  }
  const plain: PlainResponse = { status: serialised.status, headers: serialised.headers };
  if (serialised.body) plain.body = serialised.body;
  return plain;
}

/**
 * A cached answer as it is sent: its bytes, and a copy of its headers for this request's own to go on,
 * made from the template with the request id's place (`reused`, made on the answer's first reuse).
 */
function sendCached(cached: SerialisedResponse): PlainResponse {
  const plain: PlainResponse = {
    status: cached.status,
    headers: { ...(cached.reused ??= withIdPlace(cached.headers)) },
  };
  if (cached.body) plain.body = cached.body;
  return plain;
}

/**
 * Whether an admin call goes into the journal (every call of the API does):
 * those that change something (not reads, and not an operation marked
 * `x-petstore-journal: false`, such as emptying the journal itself). A
 * request that never got a session (no key, a bad session name) goes into none.
 */
function journals(request: PlainRequest, operation: CompiledOperation | undefined): boolean {
  if (request.method === 'GET') return false;
  return (operation?.definition as Record<string, unknown> | undefined)?.['x-petstore-journal'] !== false;
}

function ended(arrival: Arrival, reached: Reached) {
  return {
    request: arrival.request,
    id: arrival.id,
    startedAt: wallClockAt(arrival.started),
    started: arrival.started,
    body: reached.body,
    admin: reached.mount?.admin === true,
  };
}
