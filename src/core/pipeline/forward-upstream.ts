import { HttpError } from '../errors/http-error.js';
import { hopByHopHeaders, type PlainRequest, type PlainResponse } from '../http/plain-http.js';
import { createRedactor, credentialValues } from '../http/redact-credentials.js';
import type { ModelPartitions } from '../oracle/model-partitions.js';
import { exchangeFacts } from '../oracle/validator-memory.js';
import { fails, type Finding, finding } from '../oracle/finding.js';
import { judgeExchange } from '../oracle/judge-exchange.js';
import { judgeReceivedResponse } from '../oracle/judge-response.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { type Answer, type Middle, type MiddleInput, noPlan } from './select-mount.js';

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

/**
 * The upstream answered, but not as HTTP/1.1 frames a message (a body longer
 * or shorter than its Content-Length, broken chunks, a body where its status
 * has none, two Content-Lengths, Content-Length beside Transfer-Encoding, no
 * status line): the client gets `502 upstream_protocol_error` saying so, and
 * the deployment a finding naming `problem`: `framing` (the answer breaks
 * RFC 9112), or `too-large-to-judge` (its head is larger than the proxy
 * reads, which HTTP does not forbid).
 */
export class UpstreamFramingError extends HttpError {
  constructor(
    /** What was wrong, as a finding's message says it. */
    readonly problem: string,
    message: string,
    readonly rule: 'framing' | 'too-large-to-judge' = 'framing',
  ) {
    super('upstream_protocol_error', message);
  }
}

/** Sends a request upstream; throws `HttpError` 502/504 when the upstream cannot be reached or is too slow. */
export type Forwarder = (input: ForwardInput) => Promise<ForwardedResponse>;

/** Headers of the upstream's answer never passed on: hop-by-hop ones, and the upstream's challenge to a proxy. */
const hopByHop = new Set([...hopByHopHeaders, 'proxy-authenticate']);

/** The upstream's answer as the client gets it: its own headers but hop-by-hop ones, its body byte for byte. */
function passOn(forwarded: ForwardedResponse): PlainResponse {
  // The forwarder's headers are the answer's own copy: the hop-by-hop ones are taken out of it, not copied around.
  // A repeated header (Set-Cookie) stays a list, written as the header repeated.
  const { headers } = forwarded;
  for (const name in headers) if (hopByHop.has(name)) delete headers[name];
  headers['content-length'] = String(forwarded.body.length);
  return { status: forwarded.status, headers, body: forwarded.body };
}

export interface ForwardingOptions {
  compiled: CompiledDocument;
  forward: Forwarder;
  /** What the traffic showed so far, per partition (session, tenant), for the rules no single exchange can show. */
  memory: ModelPartitions;
  /** Replace an answer that breaks the document (a deployment-side `fail`) with `502 upstream_violation`. */
  enforce: boolean;
  /** The clock of the memory, in ms. */
  now: () => number;
}

/**
 * The judged answer of the upstream: the oracle's rules for one exchange
 * (given what the request was), then those across exchanges; for an unknown
 * route, the rules every answer follows.
 */
function judge(
  options: ForwardingOptions,
  input: MiddleInput,
  forwarded: ForwardedResponse,
  sentAt: number,
): { findings: readonly Finding[]; body: unknown } {
  const { decoded, unjudged } = forwarded;
  if (decoded === undefined) {
    const reason = unjudged ?? { rule: 'too-large-to-judge' as const, reason: 'the answer was not decoded' };
    return { findings: [finding(reason.rule, reason.reason)], body: undefined };
  }
  const type = forwarded.headers['content-type'];
  const response = {
    status: forwarded.status,
    contentType: Array.isArray(type) ? type.join(', ') : type,
    body: decoded,
    headers: forwarded.headers,
  };
  const { classified } = input;
  if (!classified) {
    return judgeReceivedResponse(options.compiled, input.operation, response, { allowUndocumentedStatus: true });
  }
  const judged = judgeExchange(options.compiled, classified, response);
  const unauthenticated =
    classified.operation.secured && (classified.credential === 'none' || classified.credential === 'malformed');
  const { request } = input;
  // What conditional requests turn on (validators, If-None-Match, when it was sent): the memory judges them too.
  const facts = exchangeFacts({
    sentAt,
    target: request.query === '' ? request.path : `${request.path}?${request.query}`,
    request: request.headers,
    response: forwarded.headers,
    bytes: decoded,
  });
  const remembered = options.memory.observe(request, classified, forwarded.status, judged.body, options.now(), facts);
  // Most exchanges find nothing: the judgement's own (shared, unchanged) findings are handed on as they are.
  if (!unauthenticated && remembered.length === 0) return judged;
  const findings = [...judged.findings];
  if (unauthenticated) {
    findings.push(
      finding('request-credentials', `${classified.operation.operationId} was sent without a bearer credential`),
    );
  }
  findings.push(...remembered);
  return { findings, body: judged.body };
}

/** The findings with every credential the request carried redacted from their messages (an upstream may echo one). */
function redacted(findings: readonly Finding[], request: PlainRequest): readonly Finding[] {
  const secrets = credentialValues(request.headers);
  if (secrets.length === 0) return findings;
  const hide = createRedactor(secrets);
  return findings.map((found) => ({ ...found, message: hide(found.message) }));
}

/**
 * The proxy's middle, in place of the handlers: the request goes upstream as
 * it came, and the answer comes back judged by the oracle. It is passed on
 * unchanged, or, with `enforce`, replaced by `502 upstream_violation` when
 * the deployment's doing fails a rule.
 */
export function createForwardingMiddle(options: ForwardingOptions): Middle {
  return { plan: () => noPlan, answer: (input) => forwardUpstream(options, input) };
}

async function forwardUpstream(options: ForwardingOptions, input: MiddleInput): Promise<Answer> {
  let forwarded: ForwardedResponse;
  const sentAt = options.now();
  try {
    forwarded = await options.forward({ request: input.request, body: input.sent, operation: input.operation });
  } catch (error) {
    // A broken answer is the deployment's finding, besides the 502 the client gets.
    if (error instanceof UpstreamFramingError) {
      input.findings.push(
        finding(
          error.rule,
          `${input.operation?.operationId ?? input.request.method}: ${error.problem}`,
          undefined,
          options.compiled,
        ),
      );
    }
    throw error;
  }
  const judged = judge(options, input, forwarded, sentAt);
  if (judged.findings.length > 0) {
    const findings = redacted(judged.findings, input.request);
    input.findings.push(...findings);
    const broken = findings.find((found) => found.side === 'response' && fails(found));
    if (options.enforce && broken) {
      throw new HttpError('upstream_violation', `the upstream's answer breaks the document: ${broken.message}`);
    }
  }
  return { kind: 'forwarded', response: passOn(forwarded), body: judged.body };
}
