import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  credentialValues,
  isCredentialHeader,
  isCredentialParameter,
  redactHeaders,
  redactQuery,
  redactedValue,
  redactUrl,
} from '../../../src/core/http/redact-credentials.js';
import { RequestJournal } from '../../../src/core/journal/request-journal.js';
import { journalEntry } from '../../support/journal-entry.js';

describe('isCredentialHeader', () => {
  it.each([
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'Set-Cookie',
    'X-Auth-Token',
    'Api-Key',
    'X-Api-Key',
    'X-Upstream-Token',
    'X-Client-Secret',
    'X-Password',
    'X-Amz-Security-Token',
    'X-Goog-Signature',
    'X-Functions-Key',
    'X-Credential',
    'apikey',
  ])('takes %s for a credential', (name) => {
    expect(isCredentialHeader(name)).toBe(true);
  });

  it.each([
    'x-request-id',
    'petstore-session',
    'content-type',
    'content-length',
    'accept',
    'prefer',
    'host',
    'idempotency-key',
    'keep-alive',
    'x-author',
  ])('keeps %s', (name) => {
    expect(isCredentialHeader(name)).toBe(false);
  });
});

describe('isCredentialParameter', () => {
  it.each([
    'sig',
    'signature',
    'X-Amz-Credential',
    'X-Amz-Signature',
    'X-Amz-Security-Token',
    'code',
    'jwt',
    'access_token',
    'id_token',
    'refresh_token',
    'key',
    'api_key',
    'apiKey',
    'token',
    'password',
    'passwd',
    'secret',
    'client_secret',
    'session_id',
    'auth',
  ])('takes %s for a credential', (name) => {
    expect(isCredentialParameter(name)).toBe(true);
  });

  it.each(['limit', 'status', 'name', 'categoryId', 'author', 'keyword', 'monkey', 'sort', 'page'])(
    'keeps %s',
    (name) => {
      expect(isCredentialParameter(name)).toBe(false);
    },
  );
});

describe('redactQuery', () => {
  it('redacts the values of credential parameters and keeps the rest exactly as sent', () => {
    expect(redactQuery('limit=5&sig=abc&X-Amz-Credential=AKIA%2F20300101&code=xyz&jwt=e.y.j&status=sold')).toBe(
      'limit=5&sig=[redacted]&X-Amz-Credential=[redacted]&code=[redacted]&jwt=[redacted]&status=sold',
    );
    expect(redactQuery('api_key=k&token=t&flag&limit=')).toBe('api_key=[redacted]&token=[redacted]&flag&limit=');
  });

  it('reads a percent-encoded name as its decoded form', () => {
    expect(redactQuery('api%5Fkey=k&to%6Ben=t')).toBe('api%5Fkey=[redacted]&to%6Ben=[redacted]');
  });

  it('leaves an empty query empty', () => {
    expect(redactQuery('')).toBe('');
  });
});

describe('redactUrl', () => {
  it('redacts the query of a request target and keeps its path', () => {
    expect(redactUrl('/v1/pets?limit=5&access_token=abc')).toBe('/v1/pets?limit=5&access_token=[redacted]');
    expect(redactUrl('/v1/pets')).toBe('/v1/pets');
  });

  it('redacts the password of an absolute URL and keeps its fragment', () => {
    expect(redactUrl('https://user:pa55@staging.example/v1/pets?key=k#top')).toBe(
      'https://user:[redacted]@staging.example/v1/pets?key=[redacted]#top',
    );
  });
});

describe('redactHeaders', () => {
  it('keeps the scheme of an Authorization header and redacts its credentials', () => {
    expect(redactHeaders({ authorization: 'Bearer secret' })).toEqual({ authorization: 'Bearer [redacted]' });
    expect(redactHeaders({ authorization: 'Basic dXNlcjpwYXNz' })).toEqual({ authorization: 'Basic [redacted]' });
  });

  it('redacts an Authorization header without a scheme whole', () => {
    expect(redactHeaders({ authorization: 'secret' })).toEqual({ authorization: '[redacted]' });
  });

  it('redacts cookie, x-api-key and proxy-authorization whole', () => {
    expect(
      redactHeaders({
        cookie: 'session=secret',
        'x-api-key': 'secret',
        'proxy-authorization': 'Basic secret',
      }),
    ).toEqual({ cookie: '[redacted]', 'x-api-key': '[redacted]', 'proxy-authorization': '[redacted]' });
  });

  it('keeps every other header as it was, arrays included, and drops undefined ones', () => {
    expect(
      redactHeaders({
        'content-type': 'application/json',
        prefer: 'code=404',
        'x-forwarded-for': '10.0.0.1',
        accept: ['application/json', 'text/plain'],
        'x-absent': undefined,
      }),
    ).toEqual({
      'content-type': 'application/json',
      prefer: 'code=404',
      'x-forwarded-for': '10.0.0.1',
      accept: ['application/json', 'text/plain'],
    });
  });

  it('redacts a repeated Set-Cookie whole', () => {
    expect(redactHeaders({ 'set-cookie': ['a=1', 'b=2'] })).toEqual({ 'set-cookie': '[redacted]' });
  });

  it('leaves no trace of the secrets in the recorded entries', () => {
    const secret = 'sup3r-s3cret-value';
    const journal = new RequestJournal(5);
    journal.record(
      journalEntry(1, {
        headers: redactHeaders({
          authorization: `Bearer ${secret}`,
          cookie: `sid=${secret}`,
          'x-api-key': secret,
          'proxy-authorization': `Basic ${secret}`,
          accept: 'application/json',
        }),
      }),
    );
    const serialised = JSON.stringify(journal.list());
    expect(serialised).not.toContain(secret);
    expect(serialised).toContain('Bearer [redacted]');
    expect(serialised).toContain('application/json');
  });
});

describe('credentialValues', () => {
  it('gives the credentials a request carried, whole and without their scheme, and nothing else', () => {
    expect(
      credentialValues({
        authorization: 'Bearer s3cret-key',
        'x-api-key': ['k1', 'k2'],
        'petstore-session': 'w1',
        'x-request-id': 'r-1',
      }).sort(),
    ).toEqual(['Bearer s3cret-key', 'k1', 'k2', 's3cret-key'].sort());
  });

  it('takes a session id for a credential, but not the name of a session of the mock', () => {
    expect(isCredentialHeader('x-session-id')).toBe(true);
    expect(isCredentialHeader('petstore-session')).toBe(false);
  });
});

describe("createRedactor over a request's credentials", () => {
  it('hides an echoed key, also URL-encoded and in base64, with the one marker', () => {
    const hide = createRedactor(credentialValues({ authorization: 'Bearer s3cret/key+1' }));
    expect(hide(`got s3cret/key+1, ${encodeURIComponent('s3cret/key+1')} and ${btoa('s3cret/key+1')}`)).toBe(
      `got ${redactedValue}, ${redactedValue} and ${redactedValue}`,
    );
  });
});
