import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

describe('GET /v1/pets/{petId} (deprecated)', () => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ scenario: 'edge-cases' });
  });
  afterAll(() => mock.close());

  it('answers 200 with the pet of that id', async () => {
    const response = await request(`${mock.baseUrl}/pets/2`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 2, name: '小白', categoryId: 2, status: 'pending' });
  });

  it('serves an id near 2^53 exactly', async () => {
    const response = await request(`${mock.baseUrl}/pets/9007199254740000`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.text).toContain('"id":9007199254740000');
  });

  it('answers 404 with an Error body for an id that does not exist', async () => {
    const response = await request(`${mock.baseUrl}/pets/424242`, { headers: auth });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'pet_not_found', message: 'no pet has id 424242', status: 404 });
  });

  it.each([
    ['the 200', '/pets/1', 200],
    ['the 404', '/pets/999', 404],
    ['the 401', '/pets/1', 401],
    ['the 400', '/pets/abc', 400],
  ])('sends Deprecation, Sunset and a successor Link on %s', async (_case, path, status) => {
    const response = await request(`${mock.baseUrl}${path}`, { headers: status === 401 ? {} : auth });
    expect(response.status).toBe(status);
    // RFC 9745: a date in the past says the operation is deprecated now (x-deprecated-at); Sunset is the removal.
    expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 22) / 1000}`);
    expect(Date.UTC(2026, 10, 22)).toBeLessThanOrEqual(Date.now());
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
  });

  it('sends no deprecation headers on the operations that are not deprecated', async () => {
    const response = await request(`${mock.baseUrl}/pets`, { headers: auth });
    expect(response.headers.get('deprecation')).toBeNull();
    expect(response.headers.get('sunset')).toBeNull();
  });

  it.each([
    ['a word', 'abc'],
    ['a decimal', '1.5'],
    ['a hexadecimal number', '0x10'],
    ['an exponent', '1e3'],
    ['an id beyond int64', '9223372036854775808'],
    ['an id below int64', '-9223372036854775809'],
    ['a padded number', '%201'],
  ])('answers 400 naming petId for %s', async (_case, id) => {
    const response = await request<{ code: string; message: string; status: number }>(`${mock.baseUrl}/pets/${id}`, {
      headers: auth,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(response.body.message).toContain("'petId'");
  });

  it('answers 404, not 400, for a negative id, which is a well-formed int64', async () => {
    const response = await request(`${mock.baseUrl}/pets/-1`, { headers: auth });
    expect(response.status).toBe(404);
  });
});
