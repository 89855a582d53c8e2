import { afterAll, beforeAll, describe, expect } from 'vitest';
import { testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, fetchAny, request } from '../../support/start-server.js';

/**
 * CORS of a mock that answers any page origin (in-process, MSW, the
 * middleware: the app's own dev server or test owns the origin). The CLI's
 * loopback policy is origins-and-hosts-suite.ts's.
 */
export function corsSuite(subject: Subject): void {
  const r = subject.resource;
  const it = testsFor(subject, { origins: 'any' });
  const collection = (target: Target) => `${target.baseUrl}${r.collectionPath}`;
  // Deprecated operations send Deprecation, Sunset and Link: a read of one shows that a page may read them.
  const deprecated = subject.facts.deprecated.find((operation) => operation.kind === 'read' && operation.resource);

  describe('CORS', () => {
    let target: Target;
    beforeAll(async () => {
      if (subject.cannot({ origins: 'any' }) === undefined) target = await subject.start({ origins: 'any' });
    });
    afterAll(() => target?.close());

    it('answers a preflight without a key, allowing Authorization and Content-Type', async () => {
      const response = await fetchAny(collection(target), {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(response.headers.get('access-control-allow-methods')?.split(', ')).toContain('POST');
    });

    it(`allows any origin on actual requests and exposes the headers a page reads${deprecated ? ', the deprecation ones included' : ''}`, async () => {
      const path = deprecated?.resource ? deprecated.resource.itemPath(1) : r.collectionPath;
      const response = await request(`${target.baseUrl}${path}`, {
        headers: { ...auth, Origin: 'https://app.example.org' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(', ');
      for (const header of ['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate']) expect(exposed).toContain(header);
      if (deprecated) expect(response.headers.get('deprecation')).not.toBeNull();
    });

    it('adds CORS headers to a 401 too, so a browser can read why it was refused', async () => {
      const response = await request(collection(target), { headers: { Origin: 'https://app.example.org' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    });

    it('answers a plain OPTIONS request, without Origin, like any other method the path does not take: 405 with Allow', async () => {
      const response = await fetchAny(collection(target), { method: 'OPTIONS' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(r.collectionMethods.join(', '));
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('allows credentials with the origin reflected, never *, and varies on Origin', async () => {
      const response = await request(collection(target), { headers: { ...auth, Origin: 'http://localhost:3000' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(response.headers.get('vary')?.split(', ')).toContain('Origin');
    });

    it('allows in a preflight exactly the headers the browser asks for, not a fixed list', async () => {
      const response = await fetchAny(collection(target), {
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
      const response = await fetchAny(collection(target), {
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
}
