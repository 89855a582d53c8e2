import type { Logger } from 'pino';
import type { HandlerResult } from '../handlers/handler-types.js';
import { HttpError } from './http-error.js';

/** The errors body-parser raises while reading a body, by their `type`. */
function fromBodyReader(error: { type?: unknown; limit?: unknown; encoding?: unknown }): HttpError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new HttpError('payload_too_large', `the body is larger than the limit of ${String(error.limit)} bytes`);
    case 'encoding.unsupported':
      return new HttpError('unsupported_media_type', `Content-Encoding '${String(error.encoding)}' is not supported`);
    case 'charset.unsupported':
      return new HttpError('unsupported_media_type', 'the body must be UTF-8');
    case 'request.aborted':
      return new HttpError('request_aborted', 'the client stopped sending the body');
    case 'request.size.invalid':
      return new HttpError('request_aborted', 'the body is shorter or longer than its Content-Length');
    default:
      return undefined;
  }
}

/**
 * The one place that turns anything thrown into an Error body
 * `{ code, message, status }` (plus `details` when there are any). An
 * unexpected error is logged with its stack and answered 500 without it.
 */
export function toErrorResult(error: unknown, logger: Logger): HandlerResult {
  const known =
    error instanceof HttpError ? error : fromBodyReader((error ?? {}) as { type?: unknown; limit?: unknown });
  if (!known) {
    logger.error({ err: error }, 'unexpected error while answering a request');
    return {
      status: 500,
      body: { code: 'internal_error', message: 'the mock failed unexpectedly; its log has the cause', status: 500 },
    };
  }
  const body: Record<string, unknown> = { code: known.code, message: known.message, status: known.status };
  if (known.details) body.details = known.details;
  return { status: known.status, headers: known.headers, body };
}
