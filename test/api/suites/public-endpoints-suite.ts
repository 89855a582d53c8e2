import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/node/load-document.js';
import { mockOptions, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { inProcessMock, request } from '../../support/start-server.js';

/** What the mock serves to anyone, without a key: its health, and the document it serves. */
export function publicEndpointsSuite(subject: Subject): void {
  const served = testsFor(subject, { pages: true });

  describe('what the mock serves to anyone, without a key', () => {
    let target: Target;
    beforeAll(async () => {
      target = await subject.start({ keys: ['secret-key-1234'] });
    });
    afterAll(() => target.close());

    it('answers GET /__admin/health with 200 { status: "ok", role: "mock" } once it serves requests', async () => {
      const response = await request(`${target.origin}/__admin/health`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'ok',
        role: 'mock',
        journal: { bytes: 0, maxBytes: 64 * 1024 * 1024, entries: 0 },
      });
    });

    testsFor(subject, { mock: true })(
      'says role "proxy" in its health when it runs as the validating proxy, which has violations to list',
      async () => {
        const proxyLike = inProcessMock({
          ...mockOptions(subject.document, {}),
          proxy: {
            forward: () => Promise.reject(new Error('not forwarded in this test')),
            enforce: false,
            settleMs: 0,
            onExchange: () => undefined,
            report: () => ({ exchanges: 0 }),
          },
        });
        expect((await request(`${proxyLike.origin}/__admin/health`)).body).toMatchObject({
          status: 'ok',
          role: 'proxy',
        });
      },
    );

    served('serves the document at /openapi.yaml byte for byte, as the file holds it', async () => {
      const response = await request(`${target.origin}/openapi.yaml`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/yaml');
      expect(response.text).toBe(readFileSync(subject.document.path, 'utf8'));
    });

    served('serves the same document as JSON at /openapi.json', async () => {
      const response = await request(`${target.origin}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(response.text)).toEqual(loadDocument(subject.document.path));
    });

    it('still asks for the key on every other admin operation', async () => {
      const response = await request(`${target.origin}/__admin/scenarios`);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    });

    served('answers only GET and HEAD for the document; other methods find nothing there', async () => {
      const head = await request(`${target.origin}/openapi.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      const post = await request(`${target.origin}/openapi.json`, { method: 'POST', body: '{}' });
      expect(post.status).toBe(404);
      expect(post.body).toMatchObject({ code: 'route_not_found' });
    });
  });
}
