import { BoundedMaps } from '../support/bounded-map.js';
import { describeDetail, fromAjvErrors } from '../errors/from-ajv-errors.js';
import { isJsonMediaType, mediaTypeEssence } from '../http/media-type.js';
import { JsonSyntaxError, parseExactJson } from '../json/exact-json.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { type Finding, finding } from './finding.js';

/**
 * The rules every response is held to on its own (see rule-catalogue.ts):
 * documented status, body presence, media type, JSON syntax, no byte order
 * mark, schema (numbers exactly), Error body and Error status. The mock
 * judges its own answers with them before sending; `judge-exchange.ts` adds
 * what depends on the request.
 */

/** A response as it came over the wire. */
export interface ReceivedResponse {
  status: number;
  /** The Content-Type header as sent, if any. */
  contentType: string | undefined;
  /** The body: its bytes as received (UTF-8 expected, a byte order mark kept), or its text; empty for none. */
  body: Uint8Array | string;
}

export interface JudgeOptions {
  /**
   * Whether a status the document does not list is let pass. The mock sends
   * some by design (400 on listPets, 405, 413, ...), always with an Error
   * body; for a deployment, `judge-exchange.ts` decides which statuses are
   * open, given the request.
   */
  allowUndocumentedStatus?: boolean;
}

/** The start of a text on one line. */
function flatten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The start of a body that is not JSON, quoted, so that any character in it reads plainly. */
function excerpt(text: string, max = 60): string {
  return JSON.stringify(flatten(text, max));
}

function documentedResponse(operation: CompiledOperation | undefined, status: number) {
  return operation?.responses.get(String(status)) ?? operation?.responses.get('default');
}

function statusFinding(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  status: number,
  options: JudgeOptions,
): Finding[] {
  if (!operation || documentedResponse(operation, status) || options.allowUndocumentedStatus === true) return [];
  return [
    finding(
      'documented-status',
      `status ${status} is not documented for ${operation.operationId} (documented: ${[...operation.responses.keys()].join(', ')})`,
      undefined,
      compiled,
    ),
  ];
}

/**
 * Judges a response body that is already a value (the mock's own, before it
 * is written): status, body presence, media type, schema, Error body and
 * Error status.
 */
export function judgeResponseValue(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  status: number,
  mediaType: string,
  body: unknown,
  options: JudgeOptions = {},
): Finding[] {
  const findings = statusFinding(compiled, operation, status, options);
  const response = documentedResponse(operation, status);
  if (response && response.validators.size === 0) {
    if (body !== undefined) {
      findings.push(
        finding(
          'body-presence',
          `status ${status} is documented without a body, but one was sent`,
          undefined,
          compiled,
        ),
      );
    }
    return findings;
  }
  if (body === undefined) {
    // An undocumented success or redirect (304, 204) may have no body; an error never may.
    if (response || status >= 400) {
      findings.push(
        response
          ? finding('body-presence', `status ${status} came without a body`, undefined, compiled)
          : finding('error-body', `the ${status} answer has no body, so no Error body`, undefined, compiled),
      );
    }
    return findings;
  }
  const essence = mediaTypeEssence(mediaType);
  let validate = response?.validators.get(essence);
  if (!response) {
    // An undocumented status, or no operation at all (an unknown path): an error must carry an Error body.
    if (status < 400) return findings;
    if (!isJsonMediaType(essence)) {
      findings.push(
        finding(
          'error-body',
          `the ${status} answer is '${mediaType || '(no Content-Type)'}', not an Error body`,
          undefined,
          compiled,
        ),
      );
      return findings;
    }
    validate = compiled.validateError;
  } else if (!validate) {
    findings.push(
      finding(
        'media-type',
        `Content-Type '${mediaType || '(none)'}' is not documented for status ${status} (documented: ${[...response.validators.keys()].join(', ')})`,
        undefined,
        compiled,
      ),
    );
    return findings;
  }
  if (!validate(body)) {
    const details = fromAjvErrors(validate.errors ?? [], 'response');
    const first = details[0];
    const problem = `${first ? describeDetail(first) : 'invalid'}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`;
    findings.push(
      response
        ? finding('schema', `the ${status} body does not match the documented schema: ${problem}`, details, compiled)
        : finding('error-body', `the ${status} body is not an Error: ${problem}`, details, compiled),
    );
    return findings;
  }
  if (status >= 400 && compiled.validateError(body)) {
    const stated = (body as { status: unknown }).status;
    if (String(stated) !== String(status)) {
      findings.push(
        finding(
          'error-status',
          `the Error body says status ${String(stated)} but the HTTP status is ${status}`,
          undefined,
          compiled,
        ),
      );
    }
  }
  return findings;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text, the byte order mark kept; a body that is not UTF-8 is a syntax problem. */
function bodyText(body: Uint8Array | string): { text: string; problem?: string } {
  if (typeof body === 'string') return { text: body };
  try {
    return { text: strictUtf8.decode(body) };
  } catch {
    return { text: new TextDecoder().decode(body), problem: 'it is not UTF-8 (RFC 8259 §8.1)' };
  }
}

/**
 * Judges a response as received: its bytes are decoded strictly (UTF-8, a
 * byte order mark reported), parsed exactly (integers beyond 2^53 kept,
 * `1.0` not taken for an integer), then judged as a value. Returns the parsed
 * body too, so that callers never parse it a second, lossy way.
 */
export function judgeReceivedResponse(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  response: ReceivedResponse,
  options: JudgeOptions = {},
): { findings: readonly Finding[]; body: unknown } {
  // The same bytes, for the same operation, status and media type, are judged the same: a client that polls a list
  // the deployment answers unchanged costs one judgement. Only the last answer of each is kept, and only a short one.
  const cache = judgedCaches.of(compiled);
  const allowUndocumented = options.allowUndocumentedStatus === true;
  const { status, contentType } = response;
  const recent = cache.recent;
  const sameAsRecent =
    recent !== undefined &&
    recent.operation === operation &&
    recent.status === status &&
    recent.contentType === contentType &&
    recent.allowUndocumented === allowUndocumented;
  // What is found is shared with later judgements of the same answer: never changed.
  if (sameAsRecent && sameBody(recent.answer.body, response.body)) return recent.answer.judged;
  const key = `${operation?.operationId ?? ''}\u0000${status}\u0000${contentType ?? ''}\u0000${allowUndocumented}`;
  // The recent answer is the one the cache holds under its key (both are set together): other bytes under the same
  // key are not in the cache, and are not compared with the same bytes again.
  const cached = sameAsRecent ? undefined : cache.get(key);
  if (cached && sameBody(cached.body, response.body)) {
    cache.recent = { operation, status, contentType, allowUndocumented, answer: cached };
    return cached.judged;
  }
  const decoded = bodyText(response.body);
  const judged = judgeText(compiled, operation, response, decoded, options);
  Object.freeze(judged.findings);
  if (decoded.problem === undefined && response.body.length <= maxCachedBody) {
    // A copy (a Buffer's `slice` would be a view): the caller's bytes may be a view of a buffer it reuses.
    const answer = { body: typeof response.body === 'string' ? response.body : new Uint8Array(response.body), judged };
    cache.set(key, answer);
    cache.recent = { operation, status, contentType, allowUndocumented, answer };
  }
  return judged;
}

/** The last answer judged for each operation, status and media type: its body, and what was found. */
interface JudgedAnswer {
  body: Uint8Array | string;
  judged: { findings: readonly Finding[]; body: unknown };
}

/** Bytes that can compare themselves natively (Node's `Buffer`: a `memcmp`, where a loop here costs 2 µs a KB). */
type SelfComparing = Uint8Array & { equals(other: Uint8Array): boolean };

/** Whether two bodies are the same bytes (or the same text), compared without decoding either. */
function sameBody(kept: Uint8Array | string, body: Uint8Array | string): boolean {
  if (typeof kept === 'string' || typeof body === 'string') return kept === body;
  if (kept.length !== body.length) return false;
  if (typeof (body as Partial<SelfComparing>).equals === 'function') return (body as SelfComparing).equals(kept);
  for (let index = 0; index < kept.length; index++) if (kept[index] !== body[index]) return false;
  return true;
}

/** Answers kept per document (128), and the longest body kept: the cache holds at most 8 MiB of bodies. */
const maxCachedBody = 64 * 1024;
const judgedCaches = new BoundedMaps<CompiledDocument, string, JudgedAnswer, RecentAnswer>(128);

/** The answer judged (or found in the cache) last, with what its key is made of. */
interface RecentAnswer {
  operation: CompiledOperation | undefined;
  status: number;
  contentType: string | undefined;
  allowUndocumented: boolean;
  answer: JudgedAnswer;
}

/** `judgeReceivedResponse` for a text not judged before. */
function judgeText(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  response: ReceivedResponse,
  decoded: { text: string; problem?: string },
  options: JudgeOptions,
): { findings: Finding[]; body: unknown } {
  const mediaType = response.contentType ?? '';
  const { status } = response;
  let { text } = decoded;
  if (text === '') {
    return {
      findings: judgeResponseValue(compiled, operation, status, mediaType, undefined, options),
      body: undefined,
    };
  }
  if (!isJsonMediaType(mediaTypeEssence(mediaType))) {
    const shown = `'${mediaType || '(no Content-Type)'}'`;
    const undocumentedError = status >= 400 && !documentedResponse(operation, status);
    return {
      findings: [
        ...statusFinding(compiled, operation, status, options),
        undocumentedError
          ? finding(
              'error-body',
              `the ${status} answer is ${shown}, not an Error body (body starts: ${excerpt(text)})`,
              undefined,
              compiled,
            )
          : finding(
              'media-type',
              `Content-Type is ${shown}, not JSON (body starts: ${excerpt(text)})`,
              undefined,
              compiled,
            ),
      ],
      body: undefined,
    };
  }
  const findings: Finding[] = [];
  if (text.charCodeAt(0) === 0xfeff) {
    findings.push(
      finding('no-byte-order-mark', `the ${status} body starts with a UTF-8 byte order mark`, undefined, compiled),
    );
    text = text.slice(1);
  }
  let body: unknown;
  try {
    if (decoded.problem) throw new JsonSyntaxError(decoded.problem);
    body = parseExactJson(text);
  } catch (error) {
    const reason = error instanceof JsonSyntaxError ? error.message : 'it nests too deeply to read';
    return {
      findings: [
        ...findings,
        ...statusFinding(compiled, operation, status, options),
        finding('json-syntax', `the body is not valid JSON (${reason}): ${excerpt(text)}`, undefined, compiled),
      ],
      body: undefined,
    };
  }
  // A body that breaks the schema is shown (its start), so that whoever reads the report sees what came back.
  for (const found of judgeResponseValue(compiled, operation, status, mediaType, body, options)) {
    const shown = ['schema', 'error-status', 'error-body'].includes(found.rule);
    findings.push(shown ? { ...found, message: `${found.message} (body: ${flatten(text, 120)})` } : found);
  }
  return { findings, body };
}
