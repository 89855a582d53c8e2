import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, request, inProcessMock, type InProcessMock, fetchAny } from '../support/start-server.js';

describe('CORS', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock();
  });
  afterAll(() => mock.close());

  it('answers a preflight without a key, allowing Authorization and Content-Type', async () => {
    const response = await fetchAny(`${mock.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('content-type');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('allows any origin on actual requests and exposes the deprecation headers', async () => {
    const response = await request(`${mock.baseUrl}/pets/1`, {
      headers: { ...auth, Origin: 'https://app.example.org' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    const exposed = response.headers.get('access-control-expose-headers') ?? '';
    for (const header of ['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate']) expect(exposed).toContain(header);
  });

  it('adds CORS headers to a 401 too, so a browser can read why it was refused', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { Origin: 'https://app.example.org' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
  });

  it('answers a plain OPTIONS request, without Origin, like any other method the path does not take: 405 with Allow', async () => {
    const response = await fetchAny(`${mock.baseUrl}/pets`, { method: 'OPTIONS' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows credentials with the origin reflected, never *, and varies on Origin', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { ...auth, Origin: 'http://localhost:3000' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('allows in a preflight exactly the headers the browser asks for, not a fixed list', async () => {
    const response = await fetchAny(`${mock.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, petstore-session, x-trace-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, petstore-session, x-trace-id');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('does not echo a requested header list that is not a list of header names', async () => {
    const response = await fetchAny(`${mock.baseUrl}/pets`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, bad header',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });
});
