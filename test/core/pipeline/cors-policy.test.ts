import { describe, expect, it } from 'vitest';
import type { PlainRequest } from '../../../src/core/http/plain-http.js';
import { corsHeaders, preflightResponse } from '../../../src/core/pipeline/cors-policy.js';

const request = (method: string, headers: PlainRequest['headers']): PlainRequest => ({
  method,
  path: '/v1/pets',
  query: '',
  headers,
});

describe('corsHeaders', () => {
  it('gives a request without Origin no CORS headers at all', () => {
    expect(corsHeaders(request('GET', { authorization: 'Bearer k' }))).toBeUndefined();
  });

  it('reflects the origin, never *, allows credentials and varies on Origin', () => {
    expect(corsHeaders(request('GET', { origin: 'https://app.example.org' }))).toEqual({
      'access-control-allow-origin': 'https://app.example.org',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers':
        'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Preference-Applied, X-Request-Id, Petstore-Violations',
      vary: 'Origin',
    });
  });
});

describe('preflightResponse', () => {
  const cors = { 'access-control-allow-origin': 'http://localhost:5173', vary: 'Origin' };

  it('answers OPTIONS with Access-Control-Request-Method with 204, no body, and the methods the API has', () => {
    const response = preflightResponse(
      request('OPTIONS', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }),
      cors,
    );
    expect(response).toEqual({
      status: 204,
      headers: {
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
        'access-control-max-age': '600',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'content-length': '0',
      },
    });
  });

  it('allows exactly the header list the browser asks for, trimmed', () => {
    const response = preflightResponse(
      request('OPTIONS', {
        origin: 'x',
        'access-control-request-method': 'GET',
        'access-control-request-headers': '  Authorization,Content-Type , X-Request-Id ',
      }),
      cors,
    );
    expect(response?.headers['access-control-allow-headers']).toBe('Authorization,Content-Type , X-Request-Id');
  });

  it.each(['authorization, <b>', 'a b', ',', 'content-type,', 'x\r\ny'])(
    'allows no headers when the list asked for is not a list of header names: %j',
    (asked) => {
      const response = preflightResponse(
        request('OPTIONS', {
          origin: 'x',
          'access-control-request-method': 'GET',
          'access-control-request-headers': asked,
        }),
        cors,
      );
      expect(response?.status).toBe(204);
      expect(response?.headers).not.toHaveProperty('access-control-allow-headers');
    },
  );

  it('is no preflight without Access-Control-Request-Method, or for another method than OPTIONS', () => {
    expect(preflightResponse(request('OPTIONS', { origin: 'x' }), cors)).toBeUndefined();
    expect(
      preflightResponse(request('GET', { origin: 'x', 'access-control-request-method': 'GET' }), cors),
    ).toBeUndefined();
  });
});
