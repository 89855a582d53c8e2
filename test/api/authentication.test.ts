import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, inProcessMock, type InProcessMock } from '../support/start-server.js';

describe('bearer authentication', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ keys: ['first-key', 'second-key'] });
  });
  afterAll(() => mock.close());

  const refusals: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['an empty Authorization header', { Authorization: '' }],
    ['an empty bearer token', { Authorization: 'Bearer ' }],
    ['the Basic scheme', { Authorization: `Basic ${Buffer.from('first-key:').toString('base64')}` }],
    ['the key without a scheme', { Authorization: 'first-key' }],
    ['an unknown key', { Authorization: 'Bearer third-key' }],
    ['a prefix of a valid key', { Authorization: 'Bearer first' }],
    ['a valid key with a suffix', { Authorization: 'Bearer first-key2' }],
  ];

  it.each(refusals)('answers 401 with an Error body and WWW-Authenticate for %s', async (_case, headers) => {
    const response = await request(`${mock.baseUrl}/pets`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="petstore"/);
    expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it.each([
    ['Bearer first-key'],
    ['Bearer second-key'],
    ['bearer first-key'],
    ['BEARER first-key'],
    ['Bearer   first-key  '],
  ])('accepts %j', async (authorization) => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { Authorization: authorization } });
    expect(response.status).toBe(200);
  });

  it('marks a presented but unknown token as invalid_token', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: { Authorization: 'Bearer nope' } });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
  });

  it('never echoes the presented key in the Error body', async () => {
    const secret = 'Sup3rSecretValue';
    for (const authorization of [`Bearer ${secret}`, secret, `Token ${secret}`]) {
      const response = await request(`${mock.baseUrl}/pets`, { headers: { Authorization: authorization } });
      expect(response.status).toBe(401);
      expect(response.text).not.toContain(secret);
    }
  });

  it.each([
    ['an invalid query', 'GET', '/pets?limit=0', undefined, undefined],
    ['a malformed petId', 'GET', '/pets/abc', undefined, undefined],
    ['an unknown petId', 'GET', '/pets/999999', undefined, undefined],
    ['malformed JSON', 'POST', '/pets', 'application/json', '{oops'],
    ['an invalid body', 'POST', '/pets', 'application/json', '{"name":5}'],
    ['a non-JSON media type', 'POST', '/pets', 'text/plain', 'hello'],
    ['an empty body', 'POST', '/pets', 'application/json', ''],
    ['an unsafe integer', 'POST', '/pets', 'application/json', '{"name":"a","categoryId":9007199254740993}'],
    ['a Prefer header asking for 200', 'GET', '/pets', undefined, undefined],
  ])('answers 401 before any validation for %s', async (_case, method, path, contentType, body) => {
    const headers: Record<string, string> = { Prefer: 'code=200' };
    if (contentType) headers['Content-Type'] = contentType;
    const response = await request(`${mock.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers 401, not 400, to a body that is not valid for its Content-Encoding', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: 'not gzip',
    });
    expect(response.status).toBe(401);
  });

  it('answers 413 before authentication to a body over the limit, compressed or not', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
  });

  it('creates nothing when an unauthenticated client posts a valid pet', async () => {
    const before = await request<unknown[]>(`${mock.baseUrl}/pets?limit=100`, {
      headers: { Authorization: 'Bearer first-key' },
    });
    await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    const after = await request<unknown[]>(`${mock.baseUrl}/pets?limit=100`, {
      headers: { Authorization: 'Bearer first-key' },
    });
    expect(after.body).toEqual(before.body);
  });
});
