import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { createAuthenticator } from '../../../src/core/pipeline/authenticate.js';
import { caught } from '../../support/caught.js';

const authenticate = createAuthenticator(['dev-key', 'second-key']);

/** The HttpError the authenticator throws for a header. */
function refusal(authorization: string | undefined): HttpError {
  return caught(HttpError, () => authenticate(authorization), JSON.stringify(authorization));
}

describe('createAuthenticator', () => {
  it('accepts every configured key as a bearer token', () => {
    expect(() => authenticate('Bearer dev-key')).not.toThrow();
    expect(() => authenticate('Bearer second-key')).not.toThrow();
  });

  it.each(['bearer dev-key', 'BEARER dev-key', 'BeArEr dev-key'])(
    'takes the scheme case-insensitively: %j',
    (header) => {
      expect(() => authenticate(header)).not.toThrow();
    },
  );

  it('accepts extra spaces or a tab around the token', () => {
    expect(() => authenticate('Bearer   dev-key')).not.toThrow();
    expect(() => authenticate('Bearer\tdev-key')).not.toThrow();
    expect(() => authenticate('  Bearer dev-key  ')).not.toThrow();
  });

  it.each([
    ['no header', undefined, "a key is required: send 'Authorization: Bearer <API_KEY>'"],
    ['an empty header', '', "a key is required: send 'Authorization: Bearer <API_KEY>'"],
    ['a blank header', '   ', "a key is required: send 'Authorization: Bearer <API_KEY>'"],
    ['the Bearer scheme with an empty token', 'Bearer ', 'the bearer token is empty'],
    ['the Bearer scheme alone', 'Bearer', 'the bearer token is empty'],
    [
      'the Basic scheme',
      'Basic ZGV2LWtleTo=',
      "the Authorization scheme must be Bearer: send 'Authorization: Bearer <API_KEY>'",
    ],
    [
      'a bare key without a scheme',
      'dev-key',
      "the Authorization scheme must be Bearer: send 'Authorization: Bearer <API_KEY>'",
    ],
  ])('refuses %s with 401 unauthorized and a plain Bearer challenge', (_label, header, message) => {
    const error = refusal(header);
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe(message);
    expect(error.headers['www-authenticate']).toBe('Bearer realm="petstore"');
  });

  it.each([
    ['an unknown key', 'Bearer not-a-key'],
    ['a prefix of a valid key', 'Bearer dev-ke'],
    ['a valid key with a suffix', 'Bearer dev-key1'],
    ['a valid key with a prefix', 'Bearer xdev-key'],
    ['a valid key in another case', 'Bearer DEV-KEY'],
    ['a token with inner spaces', 'Bearer dev key'],
    ['two valid keys in one header', 'Bearer dev-key second-key'],
  ])('refuses %s with 401 unauthorized and an invalid_token challenge', (_label, header) => {
    const error = refusal(header);
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('the API key is not valid');
    expect(error.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(error.headers['www-authenticate']).toBe('Bearer realm="petstore", error="invalid_token"');
  });

  it('never puts the presented token in the error message or headers', () => {
    for (const header of ['Bearer s3cr3t-guess', 'Basic s3cr3t-guess', 'Bearer dev-key-s3cr3t-guess']) {
      const error = refusal(header);
      expect(error.message).not.toContain('s3cr3t-guess');
      expect(JSON.stringify(error.headers)).not.toContain('s3cr3t-guess');
    }
  });

  it('refuses to be built without keys, or with an empty key or a key with spaces', () => {
    expect(() => createAuthenticator([])).toThrow('every API key must be a non-empty string without spaces');
    expect(() => createAuthenticator([''])).toThrow('every API key must be a non-empty string without spaces');
    expect(() => createAuthenticator(['good', 'has space'])).toThrow(
      'every API key must be a non-empty string without spaces',
    );
  });

  it('accepts only the keys it was built with', () => {
    const single = createAuthenticator(['only-key']);
    expect(() => single('Bearer only-key')).not.toThrow();
    expect(() => single('Bearer dev-key')).toThrow(HttpError);
  });

  it('accepts the header it accepted last again, and judges any other header afresh', () => {
    const check = createAuthenticator(['dev-key']);
    expect(() => check('Bearer dev-key')).not.toThrow();
    for (const near of ['Bearer dev-kez', 'Bearer dev-ke', 'Bearer dev-keyy', 'Basic  dev-key', 'Bearer dev-kEy']) {
      expect(caught(HttpError, () => check(near), near).status).toBe(401);
    }
    // Headers equivalent to it are accepted on their own merits, and the last one still is.
    expect(() => check('bearer  dev-key ')).not.toThrow();
    expect(() => check('Bearer dev-key')).not.toThrow();
    expect(caught(HttpError, () => check('Bearer dev-kez'), 'after').status).toBe(401);
  });

  it('answers alike whether a header is the one accepted last or not, as keys and headers alternate', () => {
    const check = createAuthenticator(['first-key', 'second-key']);
    const answers = (header: string) => {
      try {
        check(header);
        return 'accepted';
      } catch (error) {
        return (error as HttpError).status;
      }
    };
    const headers = [
      'Bearer first-key',
      'Bearer second-key',
      'Bearer first-kez',
      'Bearer second-key',
      'bearer first-key',
    ];
    for (const header of [...headers, ...[...headers].reverse(), ...headers]) {
      expect(answers(header), header).toBe(header.endsWith('-kez') ? 401 : 'accepted');
    }
  });
});
