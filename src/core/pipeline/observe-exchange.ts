import type { PlainRequest, PlainResponse } from '../http/plain-http.js';
import { redactQuery } from '../http/redact-credentials.js';
import type { MockLogger } from '../support/mock-logger.js';
import type { Finding } from '../oracle/finding.js';
import type { SessionRef, StateStore } from '../state/state-store.js';

/** One exchange of the API, judged: what the proxy's report, its log and a recording are made from. */
export interface ReportedExchange {
  operationId: string | undefined;
  method: string;
  path: string;
  query: string;
  /** The status the client got (the upstream's, or the kit's own). */
  status: number;
  /** True when the kit answered itself (an unreachable upstream, a refusal) rather than passing an answer on. */
  ownAnswer: boolean;
  /** What the oracle found, on the request's side and on the answer's. */
  findings: Finding[];
  /** The answer's body, parsed exactly, when it was JSON (for recordings). */
  body: unknown;
}

/** What the pipeline knows of an exchange when it ends. */
export interface EndedExchange {
  request: PlainRequest;
  id: string;
  /** Epoch ms when it started, and the monotonic start for its duration. */
  startedAt: number;
  started: number;
  /** The body as received. */
  body: Uint8Array | undefined;
  admin: boolean;
}

export interface Observers {
  /** Where the journals are (one per session). */
  state: StateStore;
  logger: MockLogger;
  /** Whether the info-level request log is on (checked once, not per request). */
  logRequests: boolean;
}

function fullPath(request: PlainRequest): string {
  return request.query === '' ? request.path : `${request.path}?${request.query}`;
}

/** The path and query as logged: values of credential-looking parameters (`token=`, `api_key=`) redacted. */
function loggedPath(request: PlainRequest): string {
  return request.query === '' ? request.path : `${request.path}?${redactQuery(request.query)}`;
}

/**
 * The pipeline's last point: the exchange goes into the session's journal
 * (when it belongs to one), through the state, once, and one line into the log.
 */
export function observeExchange(
  observers: Observers,
  session: SessionRef | undefined,
  exchange: EndedExchange,
  response: PlainResponse,
): PlainResponse {
  const { request, id } = exchange;
  const durationMs = performance.now() - exchange.started;
  if (session) {
    observers.state.record(session, {
      id,
      startedAt: exchange.startedAt,
      method: request.method,
      url: fullPath(request),
      headers: request.headers,
      body: exchange.body,
      status: response.status,
      responseBody: response.body,
      durationMs,
      admin: exchange.admin,
      fault: response.fault,
    });
  }
  if (observers.logRequests) {
    observers.logger.info(
      {
        req: { id, method: request.method, url: loggedPath(request) },
        res: response.fault ? { fault: response.fault } : { statusCode: response.status },
        responseTime: Math.round(durationMs * 100) / 100,
      },
      'request completed',
    );
  }
  return response;
}
