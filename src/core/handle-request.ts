import { HttpError } from './errors/http-error.js';
import { toErrorResponse } from './errors/to-error-response.js';
import type { HandlerResponse } from './handlers/handler-types.js';
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
import { injectFault } from './pipeline/inject-fault.js';
import { matchRoute } from './pipeline/match-route.js';
import { readBody } from './pipeline/read-body.js';
import { readPreference } from './pipeline/read-preference.js';
import { selectMount, type Mount } from './pipeline/select-mount.js';
import { serialiseResponse, type SerialisedResponse } from './pipeline/serialise-response.js';
import { servePublicFile, type PublicFile } from './pipeline/serve-public-file.js';
import { validateRequest } from './pipeline/validate-request.js';
import { validateResponse } from './pipeline/validate-response.js';
import type { Session } from './sessions/session.js';

/** What the pipeline runs with: everything is built once, at start-up (see create-mock-core.ts). */
export interface Pipeline {
  /** The APIs served, by base path: the animals API and the admin API. */
  mounts: readonly Mount[];
  /** Files served to anyone, by path: the document, and the pages in Node. */
  publicFiles: ReadonlyMap<string, PublicFile>;
  /** The session a request belongs to, and the problem with the name it sent, if any. */
  selectSession(request: PlainRequest): { session: Session; problem?: HttpError };
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

/**
 * The request pipeline, in the order every request meets it. Each stage is a
 * function in ./pipeline/, and each throws an `HttpError` to answer an
 * error; whatever is thrown becomes an Error body in `toErrorResponse` and
 * goes through the same response validation and write as any answer.
 *
 *   request id → CORS (a preflight is answered here) → public files (the
 *   document) → session (Petstore-Session) → mount (/v1, /__admin; 404
 *   elsewhere) → body (413) → latency → route (404, 405) → authenticate
 *   (401, unless the operation's security is empty) → a bad session name
 *   (400) → injected fault (an
 *   Error of any status, or a broken connection) → Content-Encoding (415,
 *   400) → Prefer (400) → validate the request (400, 415) → the mount's
 *   middle (the handler, or the documented example Prefer asked for) →
 *   validate the response (500) → serialise (cached by the handler's key) →
 *   headers → journal and log.
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
  let operation: CompiledOperation | undefined;
  let body: Uint8Array | undefined;
  let response: HandlerResponse;
  let serialised: SerialisedResponse | undefined;
  let fault: NetworkFault | undefined;
  try {
    if (pipeline.ready) await pipeline.ready;
    // Problems a client without a key must not learn about wait until it is authenticated: a bad session name,
    // and (below) any problem reading the body but its size.
    const selected = pipeline.selectSession(request);
    session = selected.session;
    const under = selectMount(pipeline.mounts, request.method, request.path);
    mount = under.mount;
    // An over-size body is refused at once.
    let readError: unknown;
    body = await readBody(request, pipeline.bodyLimit).catch((error: unknown) => {
      if (error instanceof HttpError && error.code === 'payload_too_large') throw error;
      readError = error;
      return undefined;
    });
    await applyLatency(session.latency, session.random);
    const match = matchRoute(mount.compiled, request.method, under.path, {
      basePath: mount.basePath,
      path: request.path,
    });
    operation = match.operation;
    if (operation.secured) pipeline.authenticate(headerValue(request, 'authorization'));
    if (selected.problem) throw selected.problem;
    fault = mount.admin ? undefined : injectFault(session, operation);
    if (fault)
      return observe(
        pipeline,
        session,
        { request, id, startedAt, started, body, admin: false },
        { status: 0, headers: {}, fault },
      );
    if (readError !== undefined) throw readError;
    body = await decodeBody(request, body, pipeline.inflate, pipeline.bodyLimit);
    const preference = readPreference(operation, headerValue(request, 'prefer'));
    const valid = validateRequest(operation, {
      pathParams: match.pathParams,
      search: request.query,
      headers: request.headers,
      body,
    });
    response = await mount.middle({ operation, request: valid, preference, session });
    if (preference.status !== undefined) {
      response = { ...response, headers: { ...response.headers, 'preference-applied': `code=${preference.status}` } };
    }
    if (response.cacheKey !== undefined) serialised = mount.cache.get(response.cacheKey);
  } catch (error) {
    response = toErrorResponse(error, pipeline.logger);
  }
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
  if (serialised.status === 401 && headers['www-authenticate'] === undefined)
    headers['www-authenticate'] = bearerChallenge;
  const plain: PlainResponse = { status: serialised.status, headers };
  if (serialised.body) plain.body = serialised.body;

  const journalled = session && journals(request, mount, operation) ? session : undefined;
  return observe(pipeline, journalled, { request, id, startedAt, started, body, admin: mount?.admin === true }, plain);
}

interface Exchanged {
  request: PlainRequest;
  id: string;
  startedAt: number;
  started: number;
  body: Uint8Array | undefined;
  admin: boolean;
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
