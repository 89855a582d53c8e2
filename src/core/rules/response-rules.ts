import { describeDetail, fromAjvErrors } from '../errors/from-ajv-errors.js';
import type { ErrorDetail } from '../errors/http-error.js';
import { JsonSyntaxError, parseExactJson } from '../json/exact-json.js';
import { isJsonMediaType, mediaTypeEssence } from '../http/media-type.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

/**
 * The one rule set that judges a response against the document. The mock's
 * pipeline judges its own responses with it before sending them; the
 * contract suite judges a deployment's, and the proxy an upstream's.
 */
export type ResponseRule =
  /** The status is one the document lists for the operation (or it lists `default`). */
  | 'documented-status'
  /** A status documented with a body has one, and one documented without a body has none. */
  | 'body-presence'
  /** The Content-Type is a media type the document gives for that status (JSON). */
  | 'media-type'
  /** The body is JSON. */
  | 'json-syntax'
  /** The body matches the documented schema (the Error schema for an undocumented 4xx/5xx), numbers exactly. */
  | 'schema'
  /** An Error body's `status` equals the HTTP status. */
  | 'error-status';

export interface Violation {
  rule: ResponseRule;
  /** One sentence naming what broke and where. */
  message: string;
  /** For `schema`: every problem, field by field. */
  details?: ErrorDetail[];
}

/** A response as it came over the wire. */
export interface ReceivedResponse {
  status: number;
  /** The Content-Type header as sent, if any. */
  contentType: string | undefined;
  /** The body as text ('' for none). */
  text: string;
}

export interface JudgeOptions {
  /**
   * Whether a status the document does not list is a violation. The mock
   * sends some by design (400 on listPets, 405, 413, ...), always with an
   * Error body; a deployment or an upstream is held to the document.
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

/**
 * Judges a response body that is already a value (the mock's own, before it
 * is written): body presence, media type, schema and Error.status.
 */
export function judgeResponseValue(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  status: number,
  mediaType: string,
  body: unknown,
  options: JudgeOptions = {},
): Violation[] {
  const violations: Violation[] = [];
  const response = operation?.responses.get(String(status)) ?? operation?.responses.get('default');
  if (operation && !response && options.allowUndocumentedStatus !== true) {
    violations.push({
      rule: 'documented-status',
      message: `status ${status} is not documented for ${operation.operationId} (documented: ${[...operation.responses.keys()].join(', ')})`,
    });
  }
  if (response && response.validators.size === 0) {
    if (body !== undefined) {
      violations.push({
        rule: 'body-presence',
        message: `status ${status} is documented without a body, but one was sent`,
      });
    }
    return violations;
  }
  if (body === undefined) {
    violations.push({ rule: 'body-presence', message: `status ${status} came without a body` });
    return violations;
  }
  const essence = mediaTypeEssence(mediaType);
  let validate = response?.validators.get(essence);
  if (!response) {
    // An undocumented status, or no operation at all (an unknown path): the body must be an Error.
    if (!isJsonMediaType(essence)) {
      violations.push({ rule: 'media-type', message: `Content-Type is '${mediaType || '(none)'}', not JSON` });
      return violations;
    }
    validate = compiled.validateError;
  } else if (!validate) {
    violations.push({
      rule: 'media-type',
      message: `Content-Type '${mediaType || '(none)'}' is not documented for status ${status} (documented: ${[...response.validators.keys()].join(', ')})`,
    });
    return violations;
  }
  if (!validate(body)) {
    const details = fromAjvErrors(validate.errors ?? [], 'response');
    const first = details[0];
    violations.push({
      rule: 'schema',
      message: `the ${status} body does not match ${response ? 'the documented schema' : 'the Error schema'}: ${first ? describeDetail(first) : 'invalid'}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`,
      details,
    });
    return violations;
  }
  if (status >= 400 && compiled.validateError(body)) {
    const stated = (body as { status: unknown }).status;
    if (String(stated) !== String(status)) {
      violations.push({
        rule: 'error-status',
        message: `the Error body says status ${String(stated)} but the HTTP status is ${status}`,
      });
    }
  }
  return violations;
}

/**
 * Judges a response as received: its text is parsed exactly (integers beyond
 * 2^53 kept, `1.0` not taken for an integer), then judged as a value. Returns
 * the parsed body too, so that callers never parse it a second, lossy way.
 */
export function judgeReceivedResponse(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  response: ReceivedResponse,
  options: JudgeOptions = {},
): { violations: Violation[]; body: unknown } {
  const mediaType = response.contentType ?? '';
  if (response.text === '') {
    return {
      violations: judgeResponseValue(compiled, operation, response.status, mediaType, undefined, options),
      body: undefined,
    };
  }
  if (!isJsonMediaType(mediaTypeEssence(mediaType))) {
    const status = judgeResponseValue(compiled, operation, response.status, 'application/json', null, options).filter(
      (violation) => violation.rule === 'documented-status',
    );
    return {
      violations: [
        ...status,
        {
          rule: 'media-type',
          message: `Content-Type is '${mediaType || '(none)'}', not JSON (body starts: ${excerpt(response.text)})`,
        },
      ],
      body: undefined,
    };
  }
  let body: unknown;
  try {
    body = parseExactJson(response.text);
  } catch (error) {
    const reason = error instanceof JsonSyntaxError ? error.message : 'it nests too deeply to read';
    const status = judgeResponseValue(compiled, operation, response.status, 'application/json', null, options).filter(
      (violation) => violation.rule === 'documented-status',
    );
    return {
      violations: [
        ...status,
        { rule: 'json-syntax', message: `the body is not valid JSON (${reason}): ${excerpt(response.text)}` },
      ],
      body: undefined,
    };
  }
  // A body that breaks the schema is shown (its start), so that whoever reads the report sees what came back.
  const violations = judgeResponseValue(compiled, operation, response.status, mediaType, body, options).map(
    (violation) =>
      violation.rule === 'schema' || violation.rule === 'error-status'
        ? { ...violation, message: `${violation.message} (body: ${flatten(response.text, 120)})` }
        : violation,
  );
  return { violations, body };
}
