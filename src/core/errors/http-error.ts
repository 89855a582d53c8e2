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

/** The most an Error body's message holds, in characters: one that echoes a 1 MB input is cut in the middle. */
export const maxMessageLength = 2_048;
/** The most a detail's field name and message hold, and how many details a body lists. */
const maxFieldLength = 256;
const maxDetailMessageLength = 512;
export const maxDetails = 100;

/**
 * A text within `max` characters: its start and its end (where a message
 * says what to do), and how many characters were left out between, so that
 * an Error body never echoes a whole 1 MB query value, path or name, yet
 * never hides that it was cut.
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.min(160, Math.floor(max / 4));
  let head = max - tail - 40;
  let end = text.length - tail;
  // Never split a UTF-16 pair.
  if (/[\uD800-\uDBFF]/.test(text.charAt(head - 1))) head--;
  if (/[\uDC00-\uDFFF]/.test(text.charAt(end))) end++;
  return `${text.slice(0, head)}… [${end - head} characters left out] …${text.slice(end)}`;
}

function boundDetails(details: ErrorDetail[] | undefined): ErrorDetail[] | undefined {
  if (!details) return undefined;
  return details.slice(0, maxDetails).map((detail) => {
    if (detail.field.length <= maxFieldLength && detail.message.length <= maxDetailMessageLength) return detail;
    return {
      ...detail,
      field: boundText(detail.field, maxFieldLength),
      message: boundText(detail.message, maxDetailMessageLength),
    };
  });
}

/**
 * Thrown by any pipeline stage; the one error handler turns it into the spec's
 * Error body `{ code, message, status }` (plus `details` when there are any).
 * Its message, and each detail's field and message, are bounded (`boundText`),
 * and at most `maxDetails` details are kept: the message says how many there were.
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
    // Issue 27: bounded however much of a request it echoes (a 1 MB query value once came back whole, twice).
    super(boundText(message, maxMessageLength), { cause: options.cause });
    this.name = 'HttpError';
    this.code = code;
    this.status = code === 'injected_fault' && options.status !== undefined ? options.status : statusOfCode(code);
    this.details = boundDetails(options.details);
    this.headers = options.headers ?? {};
  }
}
