import type { PlainRequest } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { Violation } from '../rules/response-rules.js';

/** What the proxy forwards: the request as it came, its body as sent (Content-Encoding kept). */
export interface ForwardInput {
  request: PlainRequest;
  body: Uint8Array | undefined;
  operation: CompiledOperation | undefined;
}

/**
 * Why an answer passes unjudged (issue 20): its decoded form is larger than
 * the proxy judges (`too-large-to-judge`), or its bytes are not what its
 * Content-Encoding says (`content-encoding`). The reason names no byte of the body.
 */
export interface UnjudgedAnswer {
  rule: 'too-large-to-judge' | 'content-encoding';
  reason: string;
}

/** What the upstream answered, as it came: status, headers and body bytes, all passed on unchanged. */
export interface ForwardedResponse {
  status: number;
  /** As the upstream sent them; a repeated header Node keeps as a list (`set-cookie`) stays one (issue 20). */
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  /**
   * The body with its Content-Encoding undone, to be judged (the bytes sent on
   * stay as they came); `undefined` when it is not judged, and `unjudged` says why.
   */
  decoded: Uint8Array | undefined;
  unjudged?: UnjudgedAnswer;
}

/** Sends a request upstream; throws `HttpError` 502/504 when the upstream cannot be reached or is too slow. */
export type Forwarder = (input: ForwardInput) => Promise<ForwardedResponse>;

/** A violation of the document, as the proxy reports it: where it was found and by which rule. */
export interface ProxyViolation {
  where: 'request' | 'response';
  rule: string;
  message: string;
}

/** One exchange through the proxy, judged: what the report, the log and a recording are made from. */
export interface JudgedExchange {
  operationId: string | undefined;
  method: string;
  path: string;
  query: string;
  /** The status the client got (the upstream's, or the proxy's own 502/504/400). */
  status: number;
  /** True when the proxy answered itself (upstream unreachable, or --enforce refused). */
  ownAnswer: boolean;
  violations: ProxyViolation[];
  /** The upstream's body, parsed exactly, when it was JSON (for recordings). */
  body: unknown;
}

/** The proxy in place of the handlers: where requests go, and what becomes of the verdicts. */
export interface Upstream {
  forward: Forwarder;
  /** Refuse an invalid request (400, not forwarded) and replace an invalid response (502). */
  enforce: boolean;
  /** Called once per exchange under the API's base path. */
  observe(exchange: JudgedExchange): void;
}

export function responseViolations(violations: readonly Violation[]): ProxyViolation[] {
  return violations.map((violation) => ({ where: 'response', rule: violation.rule, message: violation.message }));
}
