import type { Logger } from 'pino';
import { describeDetail } from '../errors/from-ajv-errors.js';
import type { HandlerResult } from '../handlers/handler-types.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { judgeResponseValue } from '../rules/response-rules.js';

/**
 * Checks a response against the document before it leaves. A response that
 * breaks the document is the mock's bug: it is logged and replaced by a 500
 * whose code, `invalid_response`, and details name the violation. Nothing
 * invalid is ever sent silently.
 */
export function validateResponse(
  compiled: CompiledDocument,
  operation: CompiledOperation | undefined,
  result: HandlerResult,
  logger: Logger,
): HandlerResult {
  const problems = judgeResponseValue(compiled, operation, result.status, 'application/json', result.body, {
    allowUndocumentedStatus: true,
  }).flatMap((violation) => violation.details ?? [{ location: 'response', field: '', message: violation.message }]);
  if (problems.length === 0) return result;
  const where = operation ? `${operation.operationId} ${result.status}` : `status ${result.status}`;
  logger.error(
    { operationId: operation?.operationId, status: result.status, problems },
    'response breaks the document',
  );
  const [first] = problems;
  return {
    status: 500,
    body: {
      code: 'invalid_response',
      message: `the mock produced a ${where} response that breaks the document: ${first ? describeDetail(first) : 'unknown problem'}`,
      status: 500,
      details: problems,
    },
  };
}
