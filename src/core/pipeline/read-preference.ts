import { HttpError } from '../errors/http-error.js';
import type { CompiledOperation } from '../openapi/compile-document.js';

/** What a `Prefer` header asked for, after checking it against the operation. */
export interface Preference {
  /** `code=NNN`: answer with the operation's documented response for this status. */
  status?: number;
  /** `example=NAME`: which of that response's named examples to send. */
  example?: string;
}

/** No preference: most requests; shared, never changed. */
const noPreference: Preference = Object.freeze({});

/**
 * Reads `Prefer: code=NNN[, example=NAME]` (Prism's convention, RFC 7240
 * syntax). Preferences it does not know are ignored, as RFC 7240 asks. A
 * status the operation does not document is a 400, not a guess.
 */
export function readPreference(operation: CompiledOperation, header: string | undefined): Preference {
  // Most requests send none: this small function is all they compile and run (a process's first request
  // compiles each function it meets, at a cost that grows with its size).
  if (header === undefined || header.trim() === '') return noPreference;
  return parsePreference(operation, header);
}

/** A `Prefer` header that says something, read and checked against the operation. */
function parsePreference(operation: CompiledOperation, header: string): Preference {
  const preference: Preference = {};
  for (const part of header.split(',')) {
    const [rawName, ...rest] = part.split(';')[0]?.split('=') ?? [];
    const name = rawName?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(value)) {
        throw new HttpError(
          'invalid_prefer',
          `Prefer code must be a three-digit HTTP status, got ${JSON.stringify(value)}`,
        );
      }
      if (!operation.responses.has(value)) {
        throw new HttpError(
          'invalid_prefer',
          `Prefer code=${value} is not a documented response of ${operation.operationId} (documented: ${[...operation.responses.keys()].join(', ')})`,
        );
      }
      preference.status = Number(value);
    } else if (name === 'example') {
      preference.example = value;
    }
  }
  if (preference.example !== undefined && preference.status === undefined) {
    throw new HttpError('invalid_prefer', 'Prefer example=NAME needs code=NNN beside it');
  }
  return preference;
}
