import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testsFor, type RawSend, type Subject, type Target } from '../../support/behaviour-subject.js';
import { withArticle } from '../../support/document-facts.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

/** Where the spec is silent: unknown paths and methods, bodies where none belong, odd encodings, common headers. */
export function unspecifiedBehaviourSuite(subject: Subject): void {
  const r = subject.resource;
  const it = testsFor(subject, { raw: true });
  const item = r.itemPathTemplate ? r.itemPath(1) : undefined;
  /** A path segment no path of the document begins with. */
  const unknown = ['owners', 'nothing-here'].find(
    (segment) => !Object.keys(subject.facts.document.paths).some((path) => path.startsWith(`/${segment}`)),
  );
  const disallowed = (allowed: string[], candidates: string[]) =>
    candidates.filter((method) => !allowed.includes(method));

  describe('where the spec is silent', () => {
    let target: Target;
    let raw: RawSend;
    beforeAll(async () => {
      if (subject.cannot({ raw: true }) !== undefined) return;
      target = await subject.start();
      raw = target.raw as RawSend;
    });
    afterAll(() => target?.close());

    it.each([
      ['an unknown path under /v1', `/v1/${unknown}`],
      ...(item ? [[`a path below ${withArticle(r.itemName)}`, `/v1${item}/photos`]] : []),
      ['a trailing slash', `/v1${r.collectionPath}/`],
      ['the base path itself', '/v1'],
      ['a path outside /v1', r.collectionPath],
      ['a differently cased base path', `/V1${r.collectionPath}`],
    ])('answers 404 with a JSON Error body for %s', async (_case, path) => {
      const response = await request(`${target.origin}${path}`, { headers: auth });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.body).toMatchObject({ code: 'route_not_found', status: 404 });
    });

    testsFor(subject, { raw: true, withoutPages: true })(
      'answers 404 with a JSON Error body for the site root',
      async () => {
        const response = await request(`${target.origin}/`, { headers: auth });
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(response.body).toMatchObject({ code: 'route_not_found', status: 404 });
      },
    );

    const wrongMethods: Array<[string, string, string]> = [
      ...disallowed(r.collectionMethods, ['DELETE', 'PUT', 'HEAD']).map((method): [string, string, string] => [
        method,
        `/v1${r.collectionPath}`,
        r.collectionMethods.join(', '),
      ]),
      ...(item
        ? disallowed(r.itemMethods, ['PATCH', 'DELETE', 'POST', 'PUT']).map((method): [string, string, string] => [
            method,
            `/v1${item}`,
            r.itemMethods.join(', '),
          ])
        : []),
    ];
    it.each(wrongMethods)('answers 405 with Allow for %s %s', async (method, path, allow) => {
      const response = await raw(method, path, auth);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe(allow);
      // A HEAD answer has no body; any other carries the Error.
      if (method === 'HEAD') expect(response.text).toBe('');
      else expect(JSON.parse(response.text)).toMatchObject({ code: 'method_not_allowed', status: 405 });
    });

    const notTaken = disallowed(r.collectionMethods, ['DELETE', 'PUT', 'PATCH'])[0];
    it('answers 405 before authentication, since the route does not exist for that method', async () => {
      const response = await raw(notTaken as string, `/v1${r.collectionPath}`);
      expect(response.status).toBe(405);
    });

    it(`answers 400 unexpected_body when GET ${r.collectionPath} carries a body, rather than ignoring it`, async () => {
      const response = await raw('GET', `/v1${r.collectionPath}`, jsonAuth, '{"limit":5}');
      expect(response.status).toBe(400);
      expect(JSON.parse(response.text)).toMatchObject({ code: 'unexpected_body', status: 400 });
    });

    const below = (segment: string) => (item ? `/v1${r.itemPath(segment)}` : `/v1${r.collectionPath}/${segment}`);
    it.each([
      ['a malformed percent-encoding', below('%E0%A4%A')],
      [`an encoded slash in the ${r.idField}`, below('1%2F2')],
    ])('answers a JSON Error, never HTML, for %s', async (_case, path) => {
      const response = await raw('GET', path, auth);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.text).not.toMatch(/<html|<!DOCTYPE/i);
      expect(JSON.parse(response.text)).toHaveProperty('status', response.status);
    });

    it('sends every response as application/json without a charset parameter', async () => {
      const paths = [
        `/v1${r.collectionPath}`,
        ...(item ? [`/v1${item}`, `/v1${r.itemPath(999_999)}`] : []),
        `/v1/${unknown}`,
        `/${unknown}`,
      ];
      for (const path of paths) {
        const response = await request(`${target.origin}${path}`, { headers: auth });
        expect(response.headers.get('content-type'), path).toBe('application/json');
      }
    });

    it('sends nosniff and no-store on API responses', async () => {
      const response = await request(`${target.baseUrl}${r.collectionPath}`, { headers: auth });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
      const given = await request(`${target.baseUrl}${r.collectionPath}`, {
        headers: { ...auth, 'X-Request-Id': 'abc-123' },
      });
      expect(given.headers.get('x-request-id')).toBe('abc-123');
      const made = await request(`${target.baseUrl}${r.collectionPath}`, {
        headers: { ...auth, 'X-Request-Id': '<script>' },
      });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}
