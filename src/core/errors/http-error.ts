import { type ErrorCode, type NotFoundCode, statusOfCode } from './error-codes.js';

/** One problem found in a request or response, as listed in an Error body's `details`. */
export interface ErrorDetail {
  /** Where the problem is: `body`, `query`, `path`, `header` or `response`. */
  location: string;
  /** The field or parameter, e.g. `categoryId` or `pets[2].status`; empty for the whole value. */
  field: string;
  message: string;
  /** The JSON Schema keyword that failed, when the problem came from a schema. */
  keyword?: string;
}

/**
 * Thrown by any pipeline stage; the one error handler turns it into the spec's
 * Error body `{ code, message, status }` (plus `details` when there are any).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode | NotFoundCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode | NotFoundCode,
    message: string,
    options: {
      details?: ErrorDetail[];
      headers?: Record<string, string>;
      cause?: unknown;
      /** Only for `injected_fault`, whose status is the one the fault names. */
      status?: number;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'HttpError';
    this.code = code;
    this.status = code === 'injected_fault' && options.status !== undefined ? options.status : statusOfCode(code);
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}
