import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../src/core/json/exact-json.js';
import { defaultDocument } from '../../src/generated/default-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { inProcessMock, request } from '../support/start-server.js';

describe('what the mock serves to anyone, without a key', () => {
  const mock = inProcessMock({ keys: ['secret-key-1234'] });

  it('answers GET /__admin/health with 200 { status: "ok", role: "mock" } once it serves requests', async () => {
    const response = await request(`${mock.origin}/__admin/health`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      role: 'mock',
      journal: { bytes: 0, maxBytes: 64 * 1024 * 1024, entries: 0 },
    });
  });

  it('says role "proxy" in its health when it runs as the validating proxy, which has violations to list', async () => {
    const proxyLike = inProcessMock({
      proxy: {
        forward: () => Promise.reject(new Error('not forwarded in this test')),
        enforce: false,
        settleMs: 0,
        onExchange: () => undefined,
        report: () => ({ exchanges: 0 }),
      },
    });
    expect((await request(`${proxyLike.origin}/__admin/health`)).body).toMatchObject({ status: 'ok', role: 'proxy' });
  });

  it('serves the document at /openapi.yaml byte for byte, as the file holds it', async () => {
    const response = await request(`${mock.origin}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml');
    expect(response.text).toBe(readFileSync(defaultDocumentPath, 'utf8'));
  });

  it('serves the same document as JSON at /openapi.json', async () => {
    const response = await request(`${mock.origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(parseExactJson(response.text)).toEqual(defaultDocument);
  });

  it('still asks for the key on every other admin operation', async () => {
    const response = await request(`${mock.origin}/__admin/scenarios`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
  });

  it('answers only GET and HEAD for the document; other methods find nothing there', async () => {
    const head = await request(`${mock.origin}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await request(`${mock.origin}/openapi.json`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ code: 'route_not_found' });
  });
});
