import { HttpError } from '../errors/http-error.js';
import { oneValue, type PlainRequest } from './plain-http.js';

/**
 * The header that names a session (`Petstore-Session`), what a name may be,
 * and the name of the session of a request without the header. The pipeline,
 * the sessions, the admin API and the proxy's memory all read them here.
 */
export const sessionHeader = 'petstore-session';
export const sessionNamePattern = '^[A-Za-z0-9._-]{1,64}$';
export const defaultSessionName = 'default';

const sessionName = new RegExp(sessionNamePattern);

/** What a request's `Petstore-Session` header names: a valid name (`default` without one), or the problem with it. */
export interface SessionChoice {
  name: string;
  /** A 400 naming the header, answered only once the client is authenticated. */
  problem?: HttpError;
}

/**
 * A header value as the client meant it: Node (and Fetch) give header values
 * as one character per byte (latin1), so a UTF-8 name reads as `ZoÃ«`. Decoded
 * as UTF-8 when it is one; kept as it is otherwise.
 */
function asSent(value: string): string {
  const bytes = Array.from(value, (char) => char.charCodeAt(0));
  if (bytes.every((byte) => byte < 0x80) || bytes.some((byte) => byte > 0xff)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return value;
  }
}

/** What a request without a session header chooses: the default session (shared, never changed). */
const noSessionNamed: SessionChoice = Object.freeze({ name: defaultSessionName });

/**
 * The session name a request gives, checked but not looked up: nothing is
 * made here, whatever state holds the sessions. A name that is not one comes
 * back as a 400 naming the header (beside `default`), rather than thrown, so
 * that the pipeline answers it only once the client is authenticated.
 */
export function chooseSession(request: PlainRequest): SessionChoice {
  const name = oneValue(request.headers[sessionHeader]);
  // Most requests name none: this much is all they compile and run.
  if (name === undefined) return noSessionNamed;
  return checkedName(name);
}

/** A session name as sent, checked (see `chooseSession`). */
function checkedName(name: string): SessionChoice {
  if (!sessionName.test(name)) {
    const problem = new HttpError(
      'invalid_session',
      `the Petstore-Session header must be 1-64 letters, digits, '.', '_' or '-', got ${JSON.stringify(asSent(name).slice(0, 80))}`,
    );
    return { name: defaultSessionName, problem };
  }
  return { name };
}
