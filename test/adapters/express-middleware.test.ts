import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { petstoreMiddleware } from '../../src/express.js';
import { startServer, type RunningServer } from '../support/start-server.js';
import { petsIn } from '../support/kit-model.js';

const auth = { Authorization: 'Bearer test-key' };

describe('petstoreMiddleware inside an Express app', () => {
  let server: RunningServer;
  const middleware = petstoreMiddleware({ keys: ['test-key'], scenario: 'one-of-each-status' });
  beforeAll(async () => {
    const app = express();
    app.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    app.use(middleware);
    app.use(express.json());
    app.post('/api/echo', (req, res) => {
      res.json(req.body);
    });
    app.use((_req, res) => {
      res.status(404).send('the app’s own 404');
    });
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('serves the mock under /v1 with the same store and validation as the mock process', async () => {
    const list = await fetch(`${server.origin}/v1/pets`, { headers: auth });
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBe(3);
    const created = await fetch(`${server.origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":9223372036854775807}',
    });
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('{"id":4,"name":"Rex","categoryId":9223372036854775807}');
    expect(petsIn(middleware.mock.store).size).toBe(4);
  });

  it('answers errors with the mock’s Error bodies, not the app’s', async () => {
    const missingKey = await fetch(`${server.origin}/v1/pets`);
    expect(missingKey.status).toBe(401);
    expect(missingKey.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(await missingKey.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    const unknown = await fetch(`${server.origin}/v1/nothing`, { headers: auth });
    expect(await unknown.json()).toMatchObject({ code: 'route_not_found', status: 404 });
  });

  it('serves the admin API under /__admin', async () => {
    const response = await fetch(`${server.origin}/__admin/scenarios`, { headers: auth });
    expect(await response.json()).toMatchObject({ current: 'one-of-each-status' });
  });

  it('serves the web pages under /__admin and the document, as the CLI does, without a key', async () => {
    const pages = {
      '/__admin/ui': 'text/html; charset=utf-8',
      '/__admin/ui/dashboard.js': 'text/javascript; charset=utf-8',
      '/__admin/docs': 'text/html; charset=utf-8',
      '/__admin/docs/swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      '/openapi.json': 'application/json',
      '/openapi.yaml': 'application/yaml',
    };
    for (const [path, type] of Object.entries(pages)) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
    }
    expect(await (await fetch(`${server.origin}/openapi.json`)).json()).toMatchObject({ openapi: '3.0.3' });
    // A key of the user's is never filled in for the pages; only the public dev-key would be.
    expect(await (await fetch(`${server.origin}/__admin/docs/config.json`)).json()).toEqual({ defaultKey: null });
  });

  it('leaves / and /docs to the app it is mounted in', async () => {
    expect(await (await fetch(`${server.origin}/`)).text()).toBe('the app’s own 404');
    expect(await (await fetch(`${server.origin}/docs`)).text()).toBe('the app’s own 404');
  });

  it('calls next() for every other path, so the app’s own routes keep working', async () => {
    expect(await (await fetch(`${server.origin}/health`)).json()).toEqual({ ok: true });
    const echo = await fetch(`${server.origin}/api/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ a: 1 });
    const other = await fetch(`${server.origin}/v1x/pets`);
    expect(await other.text()).toBe('the app’s own 404');
  });
});

describe('petstoreMiddleware mounted after a body parser', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.use('/mock', petstoreMiddleware({ keys: ['test-key'] }));
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('refuses a body the parser already turned into an object, rather than re-serialising it', async () => {
    const response = await fetch(`${server.origin}/mock/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":9007199254740993}',
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('body_already_read');
    expect(body.message).toContain('mount petstoreMiddleware before express.json()');
  });

  it('still answers requests without a body, under the path Express mounted it at', async () => {
    const response = await fetch(`${server.origin}/mock/v1/pets?limit=1`, { headers: auth });
    expect(response.status).toBe(200);
  });
});

describe('petstoreMiddleware mounted at the API’s own base path', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = express();
    app.use('/v1', petstoreMiddleware({ keys: ['test-key'] }));
    app.use((_req, res) => {
      res.status(404).send('the app’s own 404');
    });
    server = await startServer(app);
  });
  afterAll(() => server.close());

  it('serves the path the client sent, which Express took the base path off', async () => {
    const response = await fetch(`${server.origin}/v1/pets?limit=1`, { headers: auth });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(1);
  });

  it('still leaves a path outside the API to the app', async () => {
    const response = await fetch(`${server.origin}/v2/pets`, { headers: auth });
    expect(await response.text()).toBe('the app’s own 404');
  });
});

describe('petstoreMiddleware() with no options', () => {
  it('fills in dev-key for its pages, the only key it accepts', async () => {
    const app = express();
    app.use(petstoreMiddleware());
    const server = await startServer(app);
    try {
      expect(await (await fetch(`${server.origin}/__admin/docs/config.json`)).json()).toEqual({
        defaultKey: 'dev-key',
      });
    } finally {
      await server.close();
    }
  });
});
