import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../errors/http-error.js';

export type Authenticator = (authorization: string | undefined) => void;

const realm = 'Bearer realm="petstore"';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function refuse(message: string, tokenPresented: boolean): HttpError {
  const challenge = tokenPresented ? `${realm}, error="invalid_token"` : realm;
  return new HttpError('unauthorized', message, { headers: { 'WWW-Authenticate': challenge } });
}

/**
 * Accepts only `Authorization: Bearer <key>` with one of the configured keys.
 * The scheme is case-insensitive; keys are compared as SHA-256 digests with
 * `timingSafeEqual`, against every key, so neither the length nor the content
 * of a key leaks through timing.
 */
export function createAuthenticator(keys: readonly string[]): Authenticator {
  if (keys.length === 0 || keys.some((key) => key.length === 0 || /\s/.test(key))) {
    throw new Error('every API key must be a non-empty string without spaces');
  }
  const digests = keys.map(digest);
  return function authenticate(authorization) {
    if (authorization === undefined || authorization.trim() === '') {
      throw refuse("a key is required: send 'Authorization: Bearer <API_KEY>'", false);
    }
    const match = /^(\S+)(?:[ \t]+(.*))?$/.exec(authorization.trim());
    const scheme = match?.[1] ?? '';
    if (scheme.toLowerCase() !== 'bearer') {
      throw refuse("the Authorization scheme must be Bearer: send 'Authorization: Bearer <API_KEY>'", false);
    }
    const token = match?.[2]?.trim() ?? '';
    if (token === '') throw refuse('the bearer token is empty', false);
    const presented = digest(token);
    let accepted = false;
    for (const candidate of digests) accepted = timingSafeEqual(presented, candidate) || accepted;
    if (!accepted) throw refuse('the API key is not valid', true);
  };
}
