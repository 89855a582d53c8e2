import { describe, expect, it } from 'vitest';
import { createAdminDocument } from '../../../src/core/admin/admin-document.js';
import { HttpError } from '../../../src/core/errors/http-error.js';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { compileDocument, type CompiledDocument } from '../../../src/core/openapi/compile-document.js';
import {
  canonicalOrigin,
  corsHeaders,
  createCorsPolicy,
  maxPreflightHeaderChars,
  maxPreflightHeaders,
  preflightResponse,
  requestsOf,
  type CorsOptions,
} from '../../../src/core/pipeline/cors-policy.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { caught } from '../../support/caught.js';

const request = (method: string, headers: PlainRequest['headers']): PlainRequest => ({
  method,
  path: '/v1/pets',
  query: '',
  headers,
});

const api = compileDocument(defaultDocument, 'openapi.yaml');
const admin = compileDocument(createAdminDocument(defaultDocument.components?.schemas ?? {}, ['pets']), 'admin API');
const policy = (options?: CorsOptions) => createCorsPolicy(options, () => [api, admin]);
const anyOrigin = policy();
const safe = policy({ origins: 'loopback' });

const exposed =
  'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Preference-Applied, X-Request-Id, Petstore-Violations';

/** The HttpError the policy throws for a request. */
function refusal(options: CorsOptions, headers: PlainRequest['headers']): HttpError {
  return caught(HttpError, () => corsHeaders(policy(options), request('GET', headers)), JSON.stringify(headers));
}

describe('corsHeaders', () => {
  it('gives a request without Origin no CORS headers at all, under either policy', () => {
    expect(corsHeaders(anyOrigin, request('GET', { authorization: 'Bearer k' }))).toBeUndefined();
    expect(corsHeaders(safe, request('POST', { host: 'evil.example' }))).toBeUndefined();
  });

  it('in-process (the default): reflects any origin, null included, never *, with credentials, varying on Origin', () => {
    for (const origin of ['https://app.example.org', 'null']) {
      expect(corsHeaders(anyOrigin, request('GET', { origin }))).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': exposed,
        vary: 'Origin',
      });
    }
  });

  it.each([
    'http://localhost:5173',
    'https://localhost:5173',
    'http://localhost',
    'http://app.localhost:3000',
    'http://127.0.0.1:8080',
    'http://127.0.0.2:8080',
    'http://[::1]:5173',
  ])('safe: reflects the loopback origin %s with credentials', (origin) => {
    expect(corsHeaders(safe, request('GET', { origin }))).toEqual({
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': exposed,
      vary: 'Origin',
    });
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['a name that only starts like localhost', 'http://localhost.evil.example:5173'],
    ['credentials before a loopback host', 'http://evil.example@localhost:5173'],
    ['null (a sandboxed frame, a file, a redirect)', 'null'],
    ['a LAN address', 'http://192.168.1.20:5173'],
    ['not an origin', 'localhost:5173'],
    ['an origin with a path', 'http://localhost:5173/app'],
  ])('safe: refuses %s (%s) with 403 origin_not_allowed, naming the flag', (_label, origin) => {
    const error = refusal({ origins: 'loopback' }, { origin });
    expect(error.status).toBe(403);
    expect(error.code).toBe('origin_not_allowed');
    expect(error.message).toContain(JSON.stringify(origin));
    expect(error.message).toContain('--cors-origin');
  });

  it('safe: allows the mock’s own origin, the name and port the request was sent to', () => {
    const own = (origin: string, host: string) => corsHeaders(safe, request('POST', { origin, host }));
    expect(own('http://mock.team.internal:4010', 'mock.team.internal:4010')).toMatchObject({
      'access-control-allow-origin': 'http://mock.team.internal:4010',
    });
    for (const [origin, host] of [
      ['https://mock.team.internal', 'mock.team.internal'],
      ['http://192.168.1.20:4010', '192.168.1.20:4010'],
    ] as const) {
      expect(own(origin, host)).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': exposed,
        vary: 'Origin',
      });
    }
    expect(() => own('http://mock.team.internal:4011', 'mock.team.internal:4010')).toThrow(HttpError);
    expect(() => own('http://mock.team.internal', 'other.team.internal')).toThrow(HttpError);
  });

  it('safe: answers a page’s next request as its first, and judges its origin again under another Host', () => {
    const page = policy({ origins: 'loopback' });
    const from = (origin: string, host: string) => corsHeaders(page, request('GET', { origin, host }));
    const first = from('http://mock.team.internal:4010', 'mock.team.internal:4010');
    expect(from('http://mock.team.internal:4010', 'mock.team.internal:4010')).toEqual(first);
    // Allowed as the mock's own origin under its own Host only: the same origin under another is refused.
    expect(() => from('http://mock.team.internal:4010', 'other.team.internal:4010')).toThrow(HttpError);
    expect(() => from('http://evil.example', 'mock.team.internal:4010')).toThrow(HttpError);
    expect(from('http://mock.team.internal:4010', 'mock.team.internal:4010')).toEqual(first);
    expect(from('http://localhost:5173', 'mock.team.internal:4010')).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
    });
  });

  it('safe: allows exactly the origins it is told, with credentials, and no other', () => {
    const options: CorsOptions = { origins: 'loopback', allowed: ['https://app.example.com/', 'http://a.test:8080'] };
    expect(corsHeaders(policy(options), request('GET', { origin: 'https://app.example.com' }))).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
    });
    expect(corsHeaders(policy(options), request('GET', { origin: 'http://a.test:8080' }))).toEqual({
      'access-control-allow-origin': 'http://a.test:8080',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': exposed,
      vary: 'Origin',
    });
    for (const origin of ['http://app.example.com', 'https://app.example.com:8443', 'http://a.test', 'null']) {
      expect(refusal(options, { origin }).code).toBe('origin_not_allowed');
    }
  });

  it('safe with *: answers any other origin, null included, with * and without credentials; loopback keeps them', () => {
    const wildcard = policy({ origins: 'loopback', allowed: ['*'] });
    for (const origin of ['https://evil.example', 'null']) {
      expect(corsHeaders(wildcard, request('GET', { origin }))).toEqual({
        'access-control-allow-origin': '*',
        'access-control-expose-headers': exposed,
        vary: 'Origin',
      });
    }
    expect(corsHeaders(wildcard, request('GET', { origin: 'http://localhost:5173' }))).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-credentials': 'true',
    });
  });

  it('refuses, at creation, an allowed origin that is not an origin', () => {
    for (const given of ['null', 'app.example.com', 'https://app.example.com/app', 'ftp://x', 'https://u@x', '']) {
      expect(() => policy({ origins: 'loopback', allowed: [given] }), given).toThrow(TypeError);
    }
  });
});

describe('canonicalOrigin', () => {
  it('writes an origin as browsers send it', () => {
    expect(canonicalOrigin('https://App.Example.com:443/')).toBe('https://app.example.com');
    expect(canonicalOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(canonicalOrigin('http://[::1]:5173')).toBe('http://[::1]:5173');
  });
});

describe('requestsOf', () => {
  it('lists the methods and request headers the API and the admin API use, from their documents', () => {
    const { methods, headers } = requestsOf([api, admin]);
    expect(methods.split(', ').sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
    expect(headers.split(', ')).toEqual([
      'Authorization',
      'Content-Type',
      'Content-Encoding',
      'Prefer',
      'petstore-session',
      'X-Request-Id',
    ]);
  });

  it('follows the document: an apiKey header, a header parameter, no Content-Type without a body', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      security: [{ key: [] }],
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters: [{ name: 'X-Tenant', in: 'header', schema: { type: 'string' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      components: {
        securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
        schemas: { Error: { type: 'object' } },
      },
    } as const;
    const compiled: CompiledDocument = compileDocument(structuredClone(document) as never, 'things');
    expect(requestsOf([compiled])).toEqual({
      methods: 'GET',
      headers: 'X-API-Key, x-tenant, Content-Encoding, Prefer, petstore-session, X-Request-Id',
    });
  });
});

describe('preflightResponse', () => {
  const cors = { 'access-control-allow-origin': 'http://localhost:5173', vary: 'Origin' };
  const preflight = (headers: PlainRequest['headers'], under = anyOrigin) =>
    preflightResponse(under, request('OPTIONS', { 'access-control-request-method': 'POST', ...headers }), cors);

  it('in-process: answers with 204, no body, the methods the API has, and exactly the headers asked, trimmed', () => {
    expect(preflight({ 'access-control-request-headers': '  Authorization,Content-Type , X-Trace ' })).toEqual({
      status: 204,
      headers: {
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
        'access-control-allow-headers': 'Authorization,Content-Type , X-Trace',
        'access-control-max-age': '600',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'content-length': '0',
      },
    });
  });

  it.each(['authorization, <b>', 'a b', ',', 'content-type,', 'x\r\ny'])(
    'in-process: allows no headers when the list asked for is not a list of header names: %j',
    (asked) => {
      const response = preflight({ 'access-control-request-headers': asked });
      expect(response?.status).toBe(204);
      expect(response?.headers).not.toHaveProperty('access-control-allow-headers');
    },
  );

  it('safe: allows the documents’ methods and headers, and the headers an allowed origin asks for besides', () => {
    const asked = 'authorization, baggage, sentry-trace, traceparent, x-request-id';
    const response = preflight({ 'access-control-request-headers': asked }, safe);
    expect(response?.status).toBe(204);
    const documented = requestsOf([api, admin]).headers;
    expect(response?.headers['access-control-allow-headers']).toBe(`${documented}, baggage, sentry-trace, traceparent`);
    expect(response?.headers['access-control-allow-methods']).toBe(requestsOf([api, admin]).methods);
    expect(response?.headers).not.toHaveProperty('access-control-allow-private-network');
  });

  it('safe: allows only the documents’ headers for a preflight that asks for none, or for a list that is not one', () => {
    for (const asked of [undefined, 'a b']) {
      const response = preflight(asked === undefined ? {} : { 'access-control-request-headers': asked }, safe);
      expect(response?.headers['access-control-allow-headers']).toBe(requestsOf([api, admin]).headers);
    }
  });

  it.each([
    ['64 names', maxPreflightHeaders, 'x', 204],
    ['65 names', maxPreflightHeaders + 1, 'x', 431],
    ['2048 characters', 1, 'x'.repeat(maxPreflightHeaderChars - 1), 204],
    ['2049 characters', 1, 'x'.repeat(maxPreflightHeaderChars), 431],
  ])('bounds what a preflight may ask for, safe and in-process alike: %s', (_name, count, name, status) => {
    const asked = Array.from({ length: count }, (_, index) => `${name}${index}`).join(',');
    for (const under of [safe, anyOrigin]) {
      const response = preflight({ 'access-control-request-headers': asked }, under);
      expect(response?.status).toBe(status);
      if (status === 204) {
        expect(response?.headers['access-control-allow-headers']).toContain(asked.split(',').at(-1));
        continue;
      }
      expect(response?.headers).not.toHaveProperty('access-control-allow-headers');
      expect(response?.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      const body = JSON.parse(new TextDecoder().decode(response?.body)) as { code: string; message: string };
      expect(body).toMatchObject({ code: 'headers_too_large', status: 431 });
      expect(body.message).toMatch(/at most (64 headers|2048 characters)/);
    }
  });

  it('safe: allows a private-network request (Chromium) from an allowed origin when asked', () => {
    const response = preflight({ 'access-control-request-private-network': 'true' }, safe);
    expect(response?.headers['access-control-allow-private-network']).toBe('true');
    expect(response?.headers.vary).toContain('Access-Control-Request-Private-Network');
  });

  it('is no preflight without Access-Control-Request-Method, or for another method than OPTIONS', () => {
    expect(preflightResponse(anyOrigin, request('OPTIONS', { origin: 'x' }), cors)).toBeUndefined();
    expect(
      preflightResponse(anyOrigin, request('GET', { origin: 'x', 'access-control-request-method': 'GET' }), cors),
    ).toBeUndefined();
  });
});
