import { afterEach, describe, expect, it } from 'vitest';
import {
  type Breakage,
  type ReferenceOptions,
  type ReferenceServer,
  startReferenceServer,
} from './support/reference-server.js';

// The reference deployment is what the catalogue of deployments is built from: each option and
// breakage must do what it says, shown here with plain HTTP requests.
const token = 'reference-key-5d2e';
const started: ReferenceServer[] = [];
/** The clock the servers read: tests step it instead of sleeping. */
let time = 0;

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function start(options: Omit<ReferenceOptions, 'token' | 'clock'> = {}): Promise<ReferenceServer> {
  time = 1_800_000_000_000;
  const server = await startReferenceServer({ token, clock: () => time, ...options });
  started.push(server);
  return server;
}

interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json: unknown;
}

interface CallOptions {
  /** The Authorization header; null sends none. */
  auth?: string | null;
  /** The request body, as JSON text. */
  body?: string;
  headers?: Record<string, string>;
}

async function call(
  server: ReferenceServer,
  method: string,
  path: string,
  { auth = `Bearer ${token}`, body, headers = {} }: CallOptions = {},
): Promise<Answer> {
  const sent: Record<string, string> = { ...headers };
  if (auth !== null) sent.authorization = auth;
  if (body !== undefined) sent['content-type'] = 'application/json';
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers: sent, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const isJson = /json/.test(response.headers.get('content-type') ?? '') && text !== '';
  // `json` reads past a byte order mark (bom-body sends one); `bytes` and `text` keep it.
  const json: unknown = isJson ? JSON.parse(text.replace(/^\uFEFF/, '')) : null;
  return { status: response.status, headers: response.headers, bytes, text, json };
}

const get = (server: ReferenceServer, path: string, options?: CallOptions): Promise<Answer> =>
  call(server, 'GET', path, options);
const create = (server: ReferenceServer, body: string, options?: CallOptions): Promise<Answer> =>
  call(server, 'POST', '/pets', { ...options, body });

/** The ids of a list answer, in order. */
const idsOf = (answer: Answer): number[] => (answer.json as { id: number }[]).map((pet) => pet.id);

function expectError(answer: Answer, status: number, message?: RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.json).toEqual({ code: expect.any(String), message: expect.any(String), status });
  if (message) expect((answer.json as { message: string }).message).toMatch(message);
}

describe('the plain reference server', () => {
  it('accepts the bearer scheme in any letter case, and the key only as it is', async () => {
    const server = await start();
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await get(server, '/pets/1', { auth: `${scheme} ${token}` })).status, scheme).toBe(200);
    }
    expectError(await get(server, '/pets/1', { auth: `bearer ${token.toUpperCase()}` }), 401);
    expectError(await get(server, '/pets/1', { auth: `Basic ${token}` }), 401);
  });

  it('leaves status out of a pet created without one', async () => {
    const server = await start();
    const created = await create(server, '{"name":"Rex","categoryId":7}');
    expect(created.status).toBe(201);
    expect(created.text).toBe('{"id":31,"name":"Rex","categoryId":7}');
    expect((await get(server, '/pets/31')).text).toBe('{"id":31,"name":"Rex","categoryId":7}');
  });

  it('refuses integers with a fraction or an exponent, an out-of-range limit and an unknown status filter with 400', async () => {
    const server = await start();
    expectError(await create(server, '{"name":"Rex","categoryId":7.0}'), 400);
    expectError(await create(server, '{"name":"Rex","categoryId":1e0}'), 400);
    expectError(await get(server, '/pets/1.0'), 400);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'status=lost']) {
      expectError(await get(server, `/pets?${query}`), 400);
    }
  });

  it('keeps names byte for byte, sends no ETag and no byte order mark, and never throttles', async () => {
    const server = await start();
    const created = await create(server, '{"name":"  Rex  ","categoryId":7}');
    expect(created.json).toMatchObject({ name: '  Rex  ' });
    expect(created.bytes[0]).toBe('{'.charCodeAt(0));
    for (let i = 0; i < 12; i += 1) expect((await get(server, '/pets?limit=1')).status).toBe(200);
    expect((await get(server, '/pets/1')).headers.get('etag')).toBeNull();
    expect((await get(server, '/pets/31')).json).toMatchObject({ name: '  Rex  ' });
  });
});

describe('the reference server, correct but different', () => {
  it('refuses a categoryId outside its known categories with a 400 Error saying invalid values (knownCategories)', async () => {
    const server = await start({ knownCategories: { first: 1n, last: 1000n } });
    expect((await create(server, '{"name":"Rex","categoryId":1000}')).status).toBe(201);
    for (const categoryId of ['0', '1001', '-1', '9223372036854775807']) {
      expectError(
        await create(server, `{"name":"Rex","categoryId":${categoryId}}`),
        400,
        new RegExp(`^invalid values: there is no category ${categoryId}$`),
      );
    }
    expect(server.petCount()).toBe(31);
  });

  it('refuses a categoryId its 32-bit storage cannot hold with a 400 Error, and keeps the rest exactly (categoryIdBits)', async () => {
    const server = await start({ categoryIdBits: 32 });
    for (const categoryId of ['2147483647', '-2147483648']) {
      const created = await create(server, `{"name":"Rex","categoryId":${categoryId}}`);
      expect(created.status).toBe(201);
      expect(created.text).toContain(`"categoryId":${categoryId}`);
    }
    for (const categoryId of ['2147483648', '-2147483649', '9223372036854775807']) {
      expectError(
        await create(server, `{"name":"Rex","categoryId":${categoryId}}`),
        400,
        /^invalid values: categoryId -?\d+ does not fit in 32 bits$/,
      );
    }
    expect(server.petCount()).toBe(32);
  });

  it('refuses a name longer than its limit with a 400 Error, counting characters, and never truncates (maxNameLength)', async () => {
    const server = await start({ maxNameLength: 255 });
    const longest = 'x'.repeat(255);
    expect((await create(server, JSON.stringify({ name: longest, categoryId: 1 }))).json).toMatchObject({
      name: longest,
    });
    const dogs = '🐶'.repeat(255);
    expect((await create(server, JSON.stringify({ name: dogs, categoryId: 1 }))).json).toMatchObject({ name: dogs });
    expectError(
      await create(server, JSON.stringify({ name: 'x'.repeat(256), categoryId: 1 })),
      400,
      /^invalid values: name is longer than 255 characters$/,
    );
    expect(server.petCount()).toBe(32);
  });

  it('shows a created pet to getPet and lists only once its read lag has passed (readLagMs)', async () => {
    const server = await start({ readLagMs: 1500 });
    const created = await create(server, '{"name":"Rex","categoryId":7,"status":"sold"}');
    expect(created.status).toBe(201);
    expect(created.text).toBe('{"id":31,"name":"Rex","categoryId":7,"status":"sold"}');
    expectError(await get(server, '/pets/31'), 404);
    expect(idsOf(await get(server, '/pets?limit=100'))).not.toContain(31);
    expect(idsOf(await get(server, '/pets?status=sold&limit=100'))).not.toContain(31);
    time += 1499;
    expectError(await get(server, '/pets/31'), 404);
    time += 1;
    expect((await get(server, '/pets/31')).text).toBe(created.text);
    expect(idsOf(await get(server, '/pets?limit=100'))).toContain(31);
    expect(idsOf(await get(server, '/pets?status=sold&limit=100'))).toContain(31);
  });

  it('answers every 3rd request 429 with Retry-After in seconds, and every request until the wait is over (throttle everyNth)', async () => {
    const server = await start({ throttle: { everyNth: 3, seconds: 2 } });
    expect((await get(server, '/pets/1')).status).toBe(200);
    expect((await get(server, '/pets?limit=1')).status).toBe(200);
    const refused = await create(server, '{"name":"Rex","categoryId":7}');
    expectError(refused, 429, /^too many requests: retry after 2$/);
    expect(refused.headers.get('retry-after')).toBe('2');
    time += 1001;
    const early = await create(server, '{"name":"Rex","categoryId":7}');
    expectError(early, 429);
    expect(early.headers.get('retry-after')).toBe('1');
    time += 999;
    expect((await create(server, '{"name":"Rex","categoryId":7}')).status).toBe(201);
    expect(server.petCount()).toBe(31);
    expect((await get(server, '/pets/1')).status).toBe(200);
    expectError(await get(server, '/pets/1'), 429);
  });

  it('answers 503 with Retry-After when told to act as an overloaded gateway (throttle status 503)', async () => {
    const server = await start({ throttle: { status: 503, everyNth: 2 } });
    expect((await get(server, '/pets/1')).status).toBe(200);
    const refused = await get(server, '/pets/1');
    expectError(refused, 503, /^overloaded: retry after 1$/);
    expect(refused.headers.get('retry-after')).toBe('1');
    time += 1000;
    expect((await get(server, '/pets/1')).status).toBe(200);
  });

  it('sends Retry-After as an HTTP-date that is never before the wait ends (throttle retryAfter http-date)', async () => {
    const server = await start({ throttle: { everyNth: 2, retryAfter: 'http-date' } });
    time += 250;
    await get(server, '/pets/1');
    const refused = await get(server, '/pets/1');
    expectError(refused, 429);
    const date = refused.headers.get('retry-after') ?? '';
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
    const retryAt = Date.parse(date);
    expect(retryAt).toBeGreaterThanOrEqual(time + 1000);
    expect(retryAt).toBeLessThan(time + 2000);
    time = retryAt - 1;
    expectError(await get(server, '/pets/1'), 429);
    time = retryAt;
    expect((await get(server, '/pets/1')).status).toBe(200);
  });

  it('answers at most perSecond requests in each second and refuses the rest until the next one (throttle perSecond)', async () => {
    const server = await start({ throttle: { perSecond: 2 } });
    time += 100;
    expect((await get(server, '/pets/1')).status).toBe(200);
    expect((await get(server, '/pets/1', { auth: null })).status).toBe(401);
    const refused = await get(server, '/pets/1');
    expectError(refused, 429);
    expect(refused.headers.get('retry-after')).toBe('1');
    time += 900;
    expect((await get(server, '/pets/1')).status).toBe(200);
  });

  it('refuses a throttle that could never answer a retry, or that counts two ways', async () => {
    await expect(startReferenceServer({ token, throttle: { everyNth: 1 } })).rejects.toThrow(/at least 2/);
    await expect(startReferenceServer({ token, throttle: { everyNth: 2, perSecond: 5 } })).rejects.toThrow(
      /one of everyNth and perSecond/,
    );
    await expect(startReferenceServer({ token, throttle: {} })).rejects.toThrow(/one of everyNth and perSecond/);
  });

  it('reads integers written with a zero fraction or an exponent exactly, and writes them back plain (lenientIntegers)', async () => {
    const server = await start({ lenientIntegers: true });
    const cases: [string, string][] = [
      ['7.0', '7'],
      ['1e0', '1'],
      ['70e-1', '7'],
      ['0.7E1', '7'],
      ['-0.0', '0'],
      ['9223372036854775807.000', '9223372036854775807'],
      ['92233720368547758070e-1', '9223372036854775807'],
      ['-9.223372036854775808e18', '-9223372036854775808'],
    ];
    for (const [written, stored] of cases) {
      const created = await create(server, `{"name":"Rex","categoryId":${written}}`);
      expect(created.status, written).toBe(201);
      expect(created.text, written).toBe(
        `{"id":${(created.json as { id: number }).id},"name":"Rex","categoryId":${stored}}`,
      );
      expect((await get(server, `/pets/${(created.json as { id: number }).id}`)).text).toBe(created.text);
    }
    for (const written of ['7.5', '1e-1', '1e19', '9223372036854775808.0', '1e999999999']) {
      expectError(await create(server, `{"name":"Rex","categoryId":${written}}`), 400);
    }
    for (const petId of ['1.0', '1e0', '10e-1']) {
      expect((await get(server, `/pets/${petId}`)).json, petId).toMatchObject({ id: 1 });
    }
    expectError(await get(server, '/pets/1.5'), 400);
  });

  it('sends a strong ETag on GET answers and answers a matching If-None-Match with an empty 304 (etags)', async () => {
    const server = await start({ etags: true });
    const first = await get(server, '/pets/1');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(server, '/pets/1')).headers.get('etag')).toBe(etag);
    for (const noneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(server, '/pets/1', { headers: { 'if-none-match': noneMatch } });
      expect(again.status, noneMatch).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('deprecation')).toBe('true');
    }
    expect((await get(server, '/pets/1', { headers: { 'if-none-match': '"other"' } })).text).toBe(first.text);
    expect((await get(server, '/pets/2')).headers.get('etag')).not.toBe(etag);
    expectError(await get(server, '/pets/1', { auth: null, headers: { 'if-none-match': etag } }), 401);

    const list = await get(server, '/pets?limit=100');
    const listTag = list.headers.get('etag') ?? '';
    expect((await get(server, '/pets?limit=100', { headers: { 'if-none-match': listTag } })).status).toBe(304);
    expect((await create(server, '{"name":"Rex","categoryId":7}')).headers.get('etag')).toBeNull();
    const changed = await get(server, '/pets?limit=100', { headers: { 'if-none-match': listTag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(listTag);
  });

  it('gives the gzip form of an answer an ETag of its own', async () => {
    const server = await start({ etags: true, gzip: true });
    const plain = await get(server, '/pets', { headers: { 'accept-encoding': 'identity' } });
    const zipped = await get(server, '/pets', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.text).toBe(plain.text);
    expect(zipped.headers.get('etag')).not.toBe(plain.headers.get('etag'));
  });

  it('gives a pet created without a status the default status (defaultStatus)', async () => {
    const server = await start({ defaultStatus: 'available' });
    const created = await create(server, '{"name":"Rex","categoryId":7}');
    expect(created.text).toBe('{"id":31,"name":"Rex","categoryId":7,"status":"available"}');
    expect((await get(server, '/pets/31')).text).toBe(created.text);
    expect((await create(server, '{"name":"Max","categoryId":7,"status":"sold"}')).json).toMatchObject({
      status: 'sold',
    });
  });

  it('moves a pet created pending to available once its time has passed (statusTransition)', async () => {
    const server = await start({ statusTransition: { from: 'pending', to: 'available', afterMs: 5000 } });
    const created = await create(server, '{"name":"Rex","categoryId":7,"status":"pending"}');
    expect(created.json).toMatchObject({ id: 31, status: 'pending' });
    expect((await create(server, '{"name":"Max","categoryId":7,"status":"sold"}')).json).toMatchObject({ id: 32 });
    expect((await get(server, '/pets/31')).json).toMatchObject({ status: 'pending' });
    time += 5000;
    expect((await get(server, '/pets/31')).json).toMatchObject({ status: 'available' });
    expect(idsOf(await get(server, '/pets?status=available&limit=100'))).toContain(31);
    expect(idsOf(await get(server, '/pets?status=pending&limit=100'))).not.toContain(31);
    expect((await get(server, '/pets/32')).json).toMatchObject({ status: 'sold' });
    expect((await get(server, '/pets/2')).json).toMatchObject({ status: 'pending' });
  });

  it('answers 401 without WWW-Authenticate when told to (wwwAuthenticate false)', async () => {
    const plain = await start();
    expect((await get(plain, '/pets', { auth: null })).headers.get('www-authenticate')).toBe('Bearer');
    const server = await start({ wwwAuthenticate: false });
    const refused = await get(server, '/pets', { auth: null });
    expectError(refused, 401);
    expect(refused.headers.get('www-authenticate')).toBeNull();
  });

  it('clamps limit to 1..100 and answers 200 (outOfRangeLimit clamp)', async () => {
    const server = await start({ pets: 150, outOfRangeLimit: 'clamp' });
    const lengths: Record<string, number> = {};
    for (const limit of ['0', '-5', '101', '99999999999999999999', 'abc', '1.5', '7']) {
      const answer = await get(server, `/pets?limit=${limit}`);
      expect(answer.status, limit).toBe(200);
      lengths[limit] = idsOf(answer).length;
    }
    expect(lengths).toEqual({ '0': 1, '-5': 1, '101': 100, '99999999999999999999': 100, abc: 20, '1.5': 20, '7': 7 });
  });

  it('answers an out-of-range limit with a 422 or a JSON 500 Error when told to (outOfRangeLimit)', async () => {
    const unprocessable = await start({ outOfRangeLimit: 'unprocessable' });
    const serverError = await start({ outOfRangeLimit: 'server-error' });
    for (const limit of ['0', '101', 'abc']) {
      expectError(await get(unprocessable, `/pets?limit=${limit}`), 422, new RegExp(`limit ${limit}`));
      expectError(await get(serverError, `/pets?limit=${limit}`), 500, new RegExp(`limit ${limit}`));
    }
    expect(idsOf(await get(serverError, '/pets?limit=100'))).toHaveLength(30);
  });

  it('answers an unknown status filter with an empty list, a 422 or a JSON 500 Error when told to (unknownStatusFilter)', async () => {
    const empty = await start({ unknownStatusFilter: 'empty' });
    const answer = await get(empty, '/pets?status=lost');
    expect([answer.status, answer.text]).toEqual([200, '[]']);
    expect(idsOf(await get(empty, '/pets?status=sold'))).toHaveLength(10);
    expectError(await get(await start({ unknownStatusFilter: 'unprocessable' }), '/pets?status=lost'), 422);
    expectError(await get(await start({ unknownStatusFilter: 'server-error' }), '/pets?status=lost'), 500);
  });

  it('has a status no pet holds when seeded with a status cycle that leaves it out', async () => {
    const server = await start({ statusCycle: ['available', 'pending'] });
    const answer = await get(server, '/pets?status=sold');
    expect([answer.status, answer.text]).toEqual([200, '[]']);
  });
});

describe('the reference server, broken', () => {
  const broken = (breakage: Breakage, options: Omit<ReferenceOptions, 'token'> = {}) => start({ breakage, ...options });

  it('status-null-echo: writes status null for a pet created without one, in the 201 and later reads', async () => {
    const server = await broken('status-null-echo');
    const created = await create(server, '{"name":"Rex","categoryId":7}');
    expect(created.text).toBe('{"id":31,"name":"Rex","categoryId":7,"status":null}');
    expect((await get(server, '/pets/31')).text).toBe(created.text);
    expect((await get(server, '/pets?limit=100')).text).toContain(created.text);
    expect((await get(server, '/pets/1')).json).toMatchObject({ status: 'available' });
  });

  it('name-trimmed: trims spaces around names in the 201 and in what it stores', async () => {
    const server = await broken('name-trimmed');
    expect((await create(server, '{"name":"  Rex  ","categoryId":7}')).json).toMatchObject({ name: 'Rex' });
    expect((await get(server, '/pets/31')).json).toMatchObject({ name: 'Rex' });
  });

  it('bearer-scheme-case-sensitive: refuses the valid key unless the scheme is written Bearer', async () => {
    const server = await broken('bearer-scheme-case-sensitive');
    expect((await get(server, '/pets/1')).status).toBe(200);
    expectError(await get(server, '/pets/1', { auth: `bearer ${token}` }), 401);
    expectError(await get(server, '/pets/1', { auth: `BEARER ${token}` }), 401);
  });

  it('filtered-limit-ignored: returns a filtered page longer than its limit, and honours limit unfiltered', async () => {
    const server = await broken('filtered-limit-ignored', { pets: 90 });
    expect(idsOf(await get(server, '/pets?limit=1'))).toHaveLength(1);
    expect(idsOf(await get(server, '/pets?status=available&limit=1'))).toHaveLength(20);
    expect(idsOf(await get(server, '/pets?status=available&limit=25'))).toHaveLength(20);
  });

  it('empty-filter-returns-all: seeds no sold pet and answers status=sold with the unfiltered list', async () => {
    const server = await broken('empty-filter-returns-all');
    const sold = await get(server, '/pets?status=sold');
    expect(idsOf(sold)).toEqual(idsOf(await get(server, '/pets')));
    expect(idsOf(sold)).toHaveLength(20);
    expect((sold.json as { status: string }[]).some((pet) => pet.status === 'sold')).toBe(false);
    const available = (await get(server, '/pets?status=available&limit=100')).json as { status: string }[];
    expect(available).toHaveLength(15);
    expect(available.every((pet) => pet.status === 'available')).toBe(true);
    await create(server, '{"name":"Rex","categoryId":7,"status":"sold"}');
    expect(idsOf(await get(server, '/pets?status=sold'))).toEqual([31]);
  });

  it('bom-body: starts every JSON answer with a UTF-8 byte order mark', async () => {
    const server = await broken('bom-body');
    const answers = [
      await get(server, '/pets'),
      await get(server, '/pets/1'),
      await create(server, '{"name":"Rex","categoryId":7}'),
      await get(server, '/pets', { auth: null }),
      await get(server, '/pets/999'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 201, 401, 404]);
    for (const answer of answers) {
      expect([...answer.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(answer.text.slice(1, 2)).toMatch(/[[{]/);
      expect(answer.headers.get('content-length')).toBe(String(answer.bytes.length));
    }
  });

  it('html-500-for-open-inputs: answers an out-of-range limit or an unknown status filter with an HTML 500 page', async () => {
    const server = await broken('html-500-for-open-inputs');
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'status=lost']) {
      const answer = await get(server, `/pets?${query}`);
      expect(answer.status, query).toBe(500);
      expect(answer.headers.get('content-type')).toBe('text/html');
      expect(answer.text).toMatch(/^<html>/);
    }
    expect(idsOf(await get(server, '/pets?limit=5&status=sold'))).toHaveLength(5);
  });

  it('read-back-differs: echoes the whole name in the 201 but stores it cut to 64 characters', async () => {
    const server = await broken('read-back-differs');
    const name = `${'é'.repeat(60)}${'x'.repeat(40)}`;
    const created = await create(server, JSON.stringify({ name, categoryId: 7 }));
    expect(created.json).toEqual({ id: 31, name, categoryId: 7 });
    const stored = `${'é'.repeat(60)}xxxx`;
    expect((await get(server, '/pets/31')).json).toEqual({ id: 31, name: stored, categoryId: 7 });
    expect((await get(server, '/pets?limit=100')).json).toContainEqual({ id: 31, name: stored, categoryId: 7 });
    expect((await create(server, '{"name":"Max","categoryId":7}')).json).toEqual({
      id: 32,
      name: 'Max',
      categoryId: 7,
    });
    expect((await get(server, '/pets/32')).json).toEqual({ id: 32, name: 'Max', categoryId: 7 });
  });

  it('created-id-reused: gives every 3rd created pet the id of the newest pet, overwriting it', async () => {
    const server = await broken('created-id-reused');
    const ids: number[] = [];
    for (const name of ['A', 'B', 'C', 'D', 'E', 'F']) {
      const created = await create(server, JSON.stringify({ name, categoryId: 7 }));
      expect(created.status).toBe(201);
      ids.push((created.json as { id: number }).id);
    }
    expect(ids).toEqual([31, 32, 32, 33, 34, 34]);
    expect((await get(server, '/pets/32')).json).toMatchObject({ name: 'C' });
    expect((await get(server, '/pets/34')).json).toMatchObject({ name: 'F' });
    expect(server.petCount()).toBe(34);
    expect(new Set(server.petIds()).size).toBe(34);
  });

  it('create-without-auth-ok: answers createPet without an Authorization header with 201, and all else 401', async () => {
    const server = await broken('create-without-auth-ok');
    expect((await create(server, '{"name":"Rex","categoryId":7}', { auth: null })).status).toBe(201);
    expect(server.petCount()).toBe(31);
    expectError(await create(server, '{"name":"Rex","categoryId":7}', { auth: 'Bearer wrong-key' }), 401);
    expectError(await get(server, '/pets', { auth: null }), 401);
    expectError(await get(server, '/pets/1', { auth: null }), 401);
  });

  it('default-limit-ignored-when-filtered: seeds 90 pets and returns up to 100 for a filtered list without limit', async () => {
    const server = await broken('default-limit-ignored-when-filtered');
    expect(server.petCount()).toBe(90);
    expect(idsOf(await get(server, '/pets?status=available'))).toHaveLength(30);
    expect(idsOf(await get(server, '/pets'))).toHaveLength(20);
    expect(idsOf(await get(server, '/pets?status=available&limit=20'))).toHaveLength(20);
  });

  it('evicted-after-seconds: forgets a created pet once its time has passed, on a clock that moves by each request it receives (msPerRequest)', async () => {
    const server = await broken('evicted-after-seconds', { evictAfterMs: 10, msPerRequest: 1 });
    const created = await create(server, '{"name":"Rex","categoryId":1}');
    expect(created.status).toBe(201);
    const { id } = created.json as { id: number };
    // The create was its 1st request: the 2nd to the 11th come at most 10 ms after it on its clock.
    for (let request = 2; request <= 11; request += 1) expect((await get(server, `/pets/${id}`)).status).toBe(200);
    expectError(await get(server, `/pets/${id}`), 404);
    expect(server.requestCount()).toBe(12);
  });

  it('rate-limit-without-retry: answers every 10th request 429 with an HTML page and no Retry-After', async () => {
    const server = await broken('rate-limit-without-retry');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const answer = await get(server, '/pets/1');
      statuses.push(answer.status);
      if (answer.status !== 429) continue;
      expect(answer.headers.get('content-type')).toBe('text/html');
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
    expect((await get(server, '/pets/1')).status).toBe(200);
  });
});
