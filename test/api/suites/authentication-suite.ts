import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { request } from '../../support/start-server.js';

/** Bearer authentication of every operation: who is refused, who is let in, and that refusal comes first. */
export function authenticationSuite(subject: Subject): void {
  const r = subject.resource;
  const collection = r.collectionPath;
  const keys = ['first-key', 'second-key'];

  describe('bearer authentication', () => {
    let target: Target;
    beforeAll(async () => {
      target = await subject.start({ keys });
    });
    afterAll(() => target.close());

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
      const response = await request(`${target.baseUrl}${collection}`, { headers });
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
      const response = await request(`${target.baseUrl}${collection}`, { headers: { Authorization: authorization } });
      expect(response.status).toBe(200);
    });

    it('marks a presented but unknown token as invalid_token', async () => {
      const response = await request(`${target.baseUrl}${collection}`, { headers: { Authorization: 'Bearer nope' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore", error="invalid_token"');
    });

    it('never echoes the presented key in the Error body', async () => {
      const secret = 'Sup3rSecretValue';
      for (const authorization of [`Bearer ${secret}`, secret, `Token ${secret}`]) {
        const response = await request(`${target.baseUrl}${collection}`, { headers: { Authorization: authorization } });
        expect(response.status).toBe(401);
        expect(response.text).not.toContain(secret);
      }
    });

    const json = 'application/json';
    const writes = JSON.stringify(r.newItem());
    const cases: Array<[string, string, string, string | undefined, string | undefined]> = [
      ...(r.page ? [['an invalid query', 'GET', `${collection}?${r.page.name}=0`, undefined, undefined] as const] : []),
      ...(r.read
        ? ([
            [`a malformed ${r.idParameter}`, 'GET', r.itemPath('abc'), undefined, undefined],
            [`an unknown ${r.idParameter}`, 'GET', r.itemPath(999999), undefined, undefined],
          ] as const)
        : []),
      ['malformed JSON', 'POST', collection, json, '{oops'],
      ['an invalid body', 'POST', collection, json, JSON.stringify({ [r.text?.name ?? 'name']: 5 })],
      ['a non-JSON media type', 'POST', collection, 'text/plain', 'hello'],
      ['an empty body', 'POST', collection, json, ''],
      ...(r.integer
        ? [
            [
              'an unsafe integer',
              'POST',
              collection,
              json,
              `${writes.slice(0, -1)},${JSON.stringify(r.integer.name)}:9007199254740993}`,
            ] as const,
          ]
        : []),
      ['a Prefer header asking for 200', 'GET', collection, undefined, undefined],
    ].map((each) => [...each] as [string, string, string, string | undefined, string | undefined]);
    it.each(cases)('answers 401 before any validation for %s', async (_case, method, path, contentType, body) => {
      const headers: Record<string, string> = { Prefer: 'code=200' };
      if (contentType) headers['Content-Type'] = contentType;
      const response = await request(`${target.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
    });

    it('answers 401, not 400, to a body that is not valid for its Content-Encoding', async () => {
      const response = await request(`${target.baseUrl}${collection}`, {
        method: 'POST',
        headers: { 'Content-Type': json, 'Content-Encoding': 'gzip' },
        body: 'not gzip',
      });
      expect(response.status).toBe(401);
    });

    testsFor(subject, { bodyOverLimit: true })(
      'answers 413 before authentication to a body over the limit, compressed or not',
      async () => {
        const response = await request(`${target.baseUrl}${collection}`, {
          method: 'POST',
          headers: { 'Content-Type': json, 'Content-Encoding': 'gzip' },
          body: 'x'.repeat(1024 * 1024 + 1),
        });
        expect(response.status).toBe(413);
      },
    );

    it(`creates nothing when an unauthenticated client posts a valid ${r.itemName}`, async () => {
      const everything = `${target.baseUrl}${collection}${r.page ? `?${r.page.name}=${r.page.maximum}` : ''}`;
      const before = await request<unknown[]>(everything, { headers: { Authorization: 'Bearer first-key' } });
      const refused = await request(`${target.baseUrl}${collection}`, {
        method: 'POST',
        headers: { 'Content-Type': json },
        body: writes,
      });
      expect(refused.status).toBe(401);
      const after = await request<unknown[]>(everything, { headers: { Authorization: 'Bearer first-key' } });
      expect(after.body).toEqual(before.body);
    });
  });
}
