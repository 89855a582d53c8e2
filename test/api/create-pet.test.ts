import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonAuth, auth, request, inProcessMock, type InProcessMock } from '../support/start-server.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}
interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Array<{ field: string; location: string }>;
}

describe('POST /v1/pets', () => {
  let mock: InProcessMock;
  beforeEach(async () => {
    mock = await inProcessMock({ scenario: 'one-of-each-status' });
  });
  afterEach(() => mock.close());

  const post = (body: string, headers: Record<string, string> = jsonAuth) =>
    request<Pet & ErrorBody>(`${mock.baseUrl}/pets`, { method: 'POST', headers, body });

  it('answers 201 with the stored pet and the next id', async () => {
    const response = await post(JSON.stringify({ name: 'Rex', categoryId: 7, status: 'pending' }));
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: 4, name: 'Rex', categoryId: 7, status: 'pending' });
  });

  it('makes the new pet visible to getPet and to listPets at once', async () => {
    const created = await post(JSON.stringify({ name: 'Rex', categoryId: 7, status: 'sold' }));
    const fetched = await request<Pet>(`${mock.baseUrl}/pets/${created.body.id}`, { headers: auth });
    expect(fetched.body).toEqual(created.body);
    const sold = await request<Pet[]>(`${mock.baseUrl}/pets?status=sold`, { headers: auth });
    expect(sold.body).toContainEqual(created.body);
  });

  it('ignores a client-sent id and assigns its own', async () => {
    const response = await post(JSON.stringify({ id: 1, name: 'Rex', categoryId: 7 }));
    expect(response.status).toBe(201);
    expect(response.body.id).toBe(4);
    const first = await request<Pet>(`${mock.baseUrl}/pets/1`, { headers: auth });
    expect(first.body.name).toBe('Bella');
  });

  it('neither stores nor echoes fields the schema does not define', async () => {
    const response = await post(JSON.stringify({ name: 'Rex', categoryId: 7, colour: 'brown', owner: { id: 1 } }));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['categoryId', 'id', 'name']);
    const fetched = await request<Pet>(`${mock.baseUrl}/pets/${response.body.id}`, { headers: auth });
    expect(fetched.text).not.toContain('colour');
  });

  it('leaves an omitted status omitted', async () => {
    const response = await post(JSON.stringify({ name: 'Rex', categoryId: 7 }));
    expect(response.status).toBe(201);
    expect(response.body).not.toHaveProperty('status');
    const fetched = await request<Pet>(`${mock.baseUrl}/pets/${response.body.id}`, { headers: auth });
    expect(fetched.body).not.toHaveProperty('status');
  });

  it('keeps names exactly as sent, unicode and spaces included', async () => {
    const name = '  Zoë 🐶 "quoted" \\ 小白\n ';
    const response = await post(JSON.stringify({ name, categoryId: 1 }));
    expect(response.body.name).toBe(name);
  });

  it.each([
    ['a missing name', { categoryId: 1 }, 'name'],
    ['a missing categoryId', { name: 'Rex' }, 'categoryId'],
    ['a numeric name', { name: 5, categoryId: 1 }, 'name'],
    ['a string categoryId', { name: 'Rex', categoryId: '1' }, 'categoryId'],
    ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
    ['a null categoryId', { name: 'Rex', categoryId: null }, 'categoryId'],
    ['an unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }, 'status'],
  ])('answers 400 naming the field for %s', async (_case, body, field) => {
    const response = await post(JSON.stringify(body));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_body', status: 400 });
    expect(response.body.message).toContain(`'${field}'`);
    expect(response.body.details?.map((detail) => detail.field)).toContain(field);
  });

  it('lists every problem in details when several fields are wrong', async () => {
    const response = await post(JSON.stringify({ name: 5, status: 'lost' }));
    expect(response.status).toBe(400);
    expect(response.body.details?.map((detail) => detail.field).sort()).toEqual(['categoryId', 'name', 'status']);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"Rex"'],
    ['null', 'null'],
  ])('answers 400 when the body is %s', async (_case, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_body');
  });

  it.each([
    '0',
    '-1',
    '2147483647',
    '2147483648',
    '4294967296',
    '9007199254740991',
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '-9223372036854775808',
  ])('keeps categoryId %s exactly, stores it and reads it back', async (literal) => {
    const response = await post(`{"name":"Rex","categoryId":${literal}}`);
    expect(response.status).toBe(201);
    expect(response.text).toBe(`{"id":4,"name":"Rex","categoryId":${literal}}`);
    expect((await request(`${mock.baseUrl}/pets/4`, { headers: auth })).text).toBe(response.text);
  });

  it.each([
    ['2^63, just beyond int64', '9223372036854775808', 'must be an int64'],
    ['-2^63-1, just below int64', '-9223372036854775809', 'must be an int64'],
    ['a decimal literal', '1.0', 'must be integer (1.0 is written as a decimal)'],
    ['an exponent', '1e3', 'must be integer (1e3 is written as a decimal)'],
    ['a number too large for a double', '1e400', 'must be integer (1e400 is written as a decimal)'],
    [
      'a decimal with many digits',
      '1.00000000000000001',
      'must be integer (1.00000000000000001 is written as a decimal)',
    ],
  ])('refuses categoryId %s with 400 naming the field, and stores nothing', async (_case, literal, problem) => {
    const response = await post(`{"name":"Rex","categoryId":${literal}}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_body', status: 400 });
    expect(response.body.message).toContain(`body field 'categoryId' ${problem}`);
    const list = await request<Pet[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.body).toHaveLength(3);
  });

  it('accepts the largest safe integer as categoryId and returns it unchanged', async () => {
    const response = await post('{"name":"Rex","categoryId":9007199254740991}');
    expect(response.status).toBe(201);
    expect(response.text).toContain('"categoryId":9007199254740991');
  });

  it.each([
    ['a syntax error', '{"name": "Rex",'],
    ['a duplicate key', '{"name":"Rex","name":"Max","categoryId":1}'],
    ['a bare word', 'hello'],
  ])('answers 400 invalid_json for %s', async (_case, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_json', status: 400 });
  });

  it('answers 400 body_required for an empty body', async () => {
    const response = await post('');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'body_required', status: 400 });
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['application/json with a UTF-16 charset', 'application/json; charset=utf-16'],
  ])('answers 415 for a %s body', async (_case, contentType) => {
    const response = await post('{"name":"Rex","categoryId":1}', { ...auth, 'Content-Type': contentType });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    const response = await post('{"name":"Rex","categoryId":1}', {
      ...auth,
      'Content-Type': 'application/json; charset=UTF-8',
    });
    expect(response.status).toBe(201);
  });

  it('answers 415 when a body comes without a Content-Type', async () => {
    const response = await request(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: auth,
      body: new Uint8Array(Buffer.from('{"name":"Rex","categoryId":1}')),
    });
    expect(response.status).toBe(415);
  });

  it('answers 413 for a body over the size limit, and stores nothing', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), categoryId: 1 });
    const response = await post(big);
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    const list = await request<Pet[]>(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.body).toHaveLength(3);
  });

  it('keeps a __proto__ key from polluting anything and does not store it', async () => {
    const response = await post('{"name":"Rex","categoryId":1,"__proto__":{"status":"sold","polluted":true}}');
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: 4, name: 'Rex', categoryId: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('POST /v1/pets with hostile JSON', () => {
  it('answers 400 invalid_json, not a crash, for a body nested a hundred thousand levels deep', async () => {
    const mock = await inProcessMock();
    try {
      const depth = 100_000;
      const body = `{"name":"x","categoryId":1,"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const response = await request<{ code: string; message: string }>(`${mock.baseUrl}/pets`, {
        method: 'POST',
        headers: jsonAuth,
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_json');
      expect(response.body.message).toContain('too deeply');
      expect((await request(`${mock.baseUrl}/pets`, { headers: auth })).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe('POST /v1/pets with a Content-Encoding', () => {
  it('inflates a gzip body', async () => {
    const { gzipSync } = await import('node:zlib');
    const mock = await inProcessMock();
    try {
      const response = await request(`${mock.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...jsonAuth, 'Content-Encoding': 'gzip' },
        body: new Uint8Array(gzipSync('{"name":"Zipped","categoryId":1}')),
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'Zipped' });
    } finally {
      await mock.close();
    }
  });

  it.each(['gzip', 'deflate', 'br'])(
    'answers 400 invalid_encoding, not 500, when a %s body is not compressed',
    async (encoding) => {
      const mock = await inProcessMock();
      try {
        const response = await request<{ code: string; status: number }>(`${mock.baseUrl}/pets`, {
          method: 'POST',
          headers: { ...jsonAuth, 'Content-Encoding': encoding },
          body: '{"name":"x","categoryId":1}',
        });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_encoding', status: 400 });
      } finally {
        await mock.close();
      }
    },
  );
});
