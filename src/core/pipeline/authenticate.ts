import { HttpError } from '../errors/http-error.js';

export type Authenticator = (authorization: string | undefined) => void;

/** The challenge every 401 carries (RFC 6750). */
export const bearerChallenge = 'Bearer realm="petstore"';

function refuse(message: string, tokenPresented: boolean): HttpError {
  const challenge = tokenPresented ? `${bearerChallenge}, error="invalid_token"` : bearerChallenge;
  return new HttpError('unauthorized', message, { headers: { 'www-authenticate': challenge } });
}

/**
 * Compares a presented key with a configured one in time that depends only
 * on the configured key's length, never on how much of it matched.
 */
function sameKey(presented: string, key: string): boolean {
  let difference = presented.length ^ key.length;
  for (let index = 0; index < key.length; index++) {
    difference |= (index < presented.length ? presented.charCodeAt(index) : 0) ^ key.charCodeAt(index);
  }
  return difference === 0;
}

/**
 * Accepts only `Authorization: Bearer <key>` with one of the configured keys,
 * compared exactly (letter case included) and against every key, so that
 * timing does not tell which key came close. The scheme is case-insensitive
 * (RFC 9110).
 */
export function createAuthenticator(keys: readonly string[]): Authenticator {
  if (keys.length === 0 || keys.some((key) => key.length === 0 || /\s/.test(key))) {
    throw new Error('every API key must be a non-empty string without spaces');
  }
  // The last header accepted: most requests send the one before them, which is accepted again without being
  // parsed (compared as keys are, in time that does not depend on how much of it matched).
  let lastAccepted: string | undefined;
  return function authenticate(authorization) {
    if (authorization !== undefined && lastAccepted !== undefined && sameKey(authorization, lastAccepted)) return;
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
    let accepted = false;
    for (const key of keys) accepted = sameKey(token, key) || accepted;
    if (!accepted) throw refuse('the API key is not valid', true);
    lastAccepted = authorization;
  };
}
