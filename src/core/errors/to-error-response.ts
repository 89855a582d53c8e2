import type { HandlerResponse } from '../types/handler-response.js';
import type { MockLogger } from '../support/mock-logger.js';
import type { ErrorCode } from './error-codes.js';
import { HttpError, type ErrorDetail } from './http-error.js';

/** The Error body of the spec, `{ code, message, status }`, plus `details` when there are any. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: ErrorDetail[];
}

/** The one function that writes an Error body. Everything that answers an error goes through it. */
export function errorBody(error: HttpError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message, status: error.status };
  if (error.details) body.details = error.details;
  return body;
}

/** An Error body for a code of the catalogue (for adapters that answer before the pipeline runs). */
export function errorBodyFor(code: ErrorCode, message: string): ErrorBody {
  return errorBody(new HttpError(code, message));
}

/**
 * Turns anything thrown while answering into the response that carries its
 * Error body. An `HttpError` keeps its status, headers and details; anything
 * else is a bug of the mock: logged with its stack, answered 500 without it.
 */
export function toErrorResponse(error: unknown, logger: MockLogger): HandlerResponse {
  if (error instanceof HttpError) return { status: error.status, headers: error.headers, body: errorBody(error) };
  logger.error({ err: error }, 'unexpected error while answering a request');
  const failure = new HttpError('internal_error', 'the mock failed unexpectedly; its log has the cause');
  return { status: failure.status, body: errorBody(failure) };
}
