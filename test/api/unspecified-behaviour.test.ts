import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, jsonAuth, request, startMock, type RunningServer } from '../support/start-server.js';

/** Sends a request exactly as written, for what fetch refuses to send (odd paths, methods). */
function rawRequest(origin: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const url = new URL(origin);
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const framing = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { ...headers, ...framing } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('where the spec is silent', () => {
  let mock: RunningServer;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock.close());

  it.each([
    ['an unknown path under /v1', '/v1/owners'],
    ['a path below a pet', '/v1/pets/1/photos'],
    ['a trailing slash', '/v1/pets/'],
    ['the base path itself', '/v1'],
    ['a path outside /v1', '/pets'],
    ['the site root', '/'],
    ['a differently cased base path', '/V1/pets'],
  ])('answers 404 with a JSON Error body for %s', async (_case, path) => {
    const response = await request(`${mock.origin}${path}`, { headers: auth });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toMatchObject({ code: 'route_not_found', status: 404 });
  });

  it.each([
    ['DELETE', '/v1/pets', 'GET, POST'],
    ['PUT', '/v1/pets', 'GET, POST'],
    ['PATCH', '/v1/pets/1', 'GET'],
    ['DELETE', '/v1/pets/1', 'GET'],
    ['POST', '/v1/pets/1', 'GET'],
    ['HEAD', '/v1/pets', 'GET, POST'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const response = await rawRequest(mock.origin, method, path, auth);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    if (method !== 'HEAD') expect(JSON.parse(response.text)).toMatchObject({ code: 'method_not_allowed', status: 405 });
  });

  it('answers 405 before authentication, since the route does not exist for that method', async () => {
    const response = await rawRequest(mock.origin, 'DELETE', '/v1/pets');
    expect(response.status).toBe(405);
  });

  it('answers 400 unexpected_body when GET /pets carries a body, rather than ignoring it', async () => {
    const response = await rawRequest(mock.origin, 'GET', '/v1/pets', jsonAuth, '{"limit":5}');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'unexpected_body', status: 400 });
  });

  it.each([
    ['a malformed percent-encoding', '/v1/pets/%E0%A4%A'],
    ['an encoded slash in the id', '/v1/pets/1%2F2'],
  ])('answers a JSON Error, never HTML, for %s', async (_case, path) => {
    const response = await rawRequest(mock.origin, 'GET', path, auth);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.text).not.toMatch(/<html|<!DOCTYPE/i);
    expect(JSON.parse(response.text)).toHaveProperty('status', response.status);
  });

  it('sends every response as application/json without a charset parameter', async () => {
    for (const path of ['/v1/pets', '/v1/pets/1', '/v1/pets/999', '/v1/nope', '/nope']) {
      const response = await request(`${mock.origin}${path}`, { headers: auth });
      expect(response.headers.get('content-type')).toBe('application/json');
    }
  });

  it('sends nosniff and no-store on API responses', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: auth });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const given = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, 'X-Request-Id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, 'X-Request-Id': '<script>' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
