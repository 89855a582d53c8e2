import { describeDetail } from '../errors/from-ajv-errors.js';
import { HttpError } from '../errors/http-error.js';
import { errorBody } from '../errors/to-error-response.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { MockLogger } from '../support/mock-logger.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import type { Finding } from '../oracle/finding.js';
import { judgeResponseValue } from '../oracle/judge-response.js';

/**
 * Judges the kit's own response with the oracle's response rules (see
 * src/core/oracle/judge-response.ts) before it leaves. Statuses the document does not list
 * for an operation (400 on listPets, 405, 413, ...) are sent by design, with
 * an Error body. A response that breaks the document otherwise is the mock's
 * bug: it is logged and replaced by a 500 whose code, `invalid_response`, and
 * details name the violation. Nothing invalid is ever sent silently.
 */
export function validateResponse(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  response: HandlerResponse,
  logger: MockLogger,
): HandlerResponse {
  const findings = judgeResponseValue(compiled, operation, response.status, 'application/json', response.body, {
    allowUndocumentedStatus: true,
  });
  // A response that keeps to the document (every response but a bug's) compiles and runs only this much.
  if (findings.length === 0) return response;
  return invalidResponse(operation, response, findings, logger);
}

/** The 500 that replaces a response breaking the document, logged with what breaks it. */
function invalidResponse(
  operation: CompiledOperation | undefined,
  response: HandlerResponse,
  findings: readonly Finding[],
  logger: MockLogger,
): HandlerResponse {
  const where = operation ? `${operation.operationId} ${response.status}` : `status ${response.status}`;
  const details = findings.flatMap(
    (found) => found.details ?? [{ location: 'response', field: '', message: found.message }],
  );
  logger.error(
    { operationId: operation?.operationId, status: response.status, details },
    'response breaks the document',
  );
  const [first] = details;
  const failure = new HttpError(
    'invalid_response',
    `the mock produced a ${where} response that breaks the document: ${first ? describeDetail(first) : 'unknown problem'}`,
    { details },
  );
  return { status: failure.status, body: errorBody(failure) };
}
