import type { Logger } from 'pino';
import type { HandlerResult } from '../handlers/handler-types.js';
import { HttpError } from './http-error.js';

/** The errors body-parser (and zlib, inflating for it) raise while reading a body. */
function fromBodyReader(error: {
  type?: unknown;
  limit?: unknown;
  encoding?: unknown;
  errno?: unknown;
  status?: unknown;
}): HttpError | undefined {
  // zlib's own errors (Z_DATA_ERROR, brotli's ERR__ERROR_…) reach us with an errno, status 400 and no type.
  if (error.type === undefined && typeof error.errno === 'number' && error.status === 400) {
    return new HttpError('invalid_encoding', 'the body is not valid data for its Content-Encoding');
  }
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
