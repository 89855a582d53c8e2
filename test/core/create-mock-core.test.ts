import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { createMockCore, type MockCoreOptions } from '../../src/core/create-mock-core.js';
import type { PlainRequest, PlainResponse } from '../../src/core/http/plain-http.js';
import { silentLogger, type MockLogger } from '../../src/core/support/mock-logger.js';
import { DocumentError } from '../../src/core/openapi/document-error.js';
import { FixtureError } from '../../src/core/scenarios/fixture.js';
import type { GenerateItems } from '../../src/core/seed/generate-items.js';
import { generateItems } from '../../src/core/seed/generate-items.js';
import { ItemListError } from '../../src/core/store/check-item-list.js';
import { defaultDocument } from '../../src/generated/default-document.js';
import { defaultFixtures } from '../../src/generated/default-fixtures.js';
import { petsIn } from '../support/kit-model.js';

const core = (options: Partial<MockCoreOptions> = {}) =>
  createMockCore({ document: defaultDocument, fixtures: defaultFixtures, generateItems, ...options });

const get = (path: string, headers: PlainRequest['headers'] = { authorization: 'Bearer dev-key' }): PlainRequest => {
  const [pathname = '', query = ''] = path.split('?');
  return { method: 'GET', path: pathname, query, headers };
};
const text = (response: PlainResponse) => new TextDecoder().decode(response.body);
const json = (response: PlainResponse) => JSON.parse(text(response)) as unknown;

/** A logger that keeps what it is given. */
function memoryLogger(level: 'info' | 'error' = 'info'): MockLogger & { lines: Array<[string, object, string]> } {
  const lines: Array<[string, object, string]> = [];
  const keep = (name: string) => (details: object, message: string) => lines.push([name, details, message]);
  return {
    lines,
    error: keep('error'),
    warn: keep('warn'),
    info: keep('info'),
    debug: keep('debug'),
    isLevelEnabled: (asked) => asked === 'error' || level === 'info',
  };
}

describe('createMockCore', () => {
  it('answers a plain request with a plain response: lower-case headers, the body as bytes, its length', async () => {
    const response = await core({ scenario: 'one-of-each-status' }).handle(get('/v1/pets?limit=1'));
    expect(response.status).toBe(200);
    expect(text(response)).toBe('[{"id":1,"name":"Bella","categoryId":1,"status":"available"}]');
    expect(response.headers['content-length']).toBe(String(response.body?.length));
    expect(Object.keys(response.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(response.fault).toBeUndefined();
  });

  it('accepts the key dev-key unless told otherwise, and then only the keys it is given', async () => {
    expect((await core().handle(get('/v1/pets'))).status).toBe(200);
    const strict = core({ keys: ['other'] });
    expect((await strict.handle(get('/v1/pets'))).status).toBe(401);
    expect((await strict.handle(get('/v1/pets', { authorization: 'Bearer other' }))).status).toBe(200);
    expect(() => core({ keys: [] })).toThrow('every API key must be a non-empty string without spaces');
  });

  it('serves the API under another base path when told, and names it in its 404s', async () => {
    const mock = core({ basePath: '/api/v2' });
    expect((await mock.handle(get('/api/v2/pets'))).status).toBe(200);
    const elsewhere = await mock.handle(get('/v1/pets'));
    expect(elsewhere.status).toBe(404);
    expect(json(elsewhere)).toMatchObject({ message: 'nothing is served at GET /v1/pets; the API is under /api/v2' });
    const deprecated = await mock.handle(get('/api/v2/pets/1'));
    expect(deprecated.headers.link).toBe('</api/v2/pets>; rel="successor-version"');
  });

  it('lists every scenario it knows, and starts from the one it is given', () => {
    const mock = core({ scenario: 'empty' });
    expect(mock.scenarios().map((info) => info.name)).toEqual([
      'default',
      'edge-cases',
      'empty',
      'large',
      'one-of-each-status',
    ]);
    expect(mock.scenario).toBe('empty');
    expect(petsIn(mock.store).size).toBe(0);
  });

  it('starts from a scenario given as an object, checked like any fixture', async () => {
    const mock = core({
      scenario: { name: 'mine', fixture: { description: 'mine', pets: [{ id: 9, name: 'Nine', categoryId: 1 }] } },
    });
    expect(mock.scenario).toBe('mine');
    expect(text(await mock.handle(get('/v1/pets/9')))).toBe('{"id":9,"name":"Nine","categoryId":1}');
    expect(() => core({ scenario: { name: 'bad', fixture: { description: 'x', pets: [{ id: 1 }] } } })).toThrow(
      "scenario 'bad': field 'pets[0].name' is required",
    );
  });

  it('restores saved pets over its scenario, so that a reset still goes back to the scenario', () => {
    const mock = core({
      scenario: 'one-of-each-status',
      saved: { items: { pets: [{ id: 40, name: 'Saved', categoryId: 1 }] }, source: 'state.json' },
    });
    expect(
      petsIn(mock.store)
        .all()
        .map((pet) => pet.id),
    ).toEqual([40]);
    expect(mock.reset()).toEqual({ scenario: 'one-of-each-status', pets: 3 });
  });

  it('checks saved pets with the one item-list check, naming where they came from', () => {
    expect(() =>
      core({ saved: { items: { pets: [{ id: 1, name: 'A', categoryId: 1, owner: 'x' }] }, source: 'state.json' } }),
    ).toThrow(new ItemListError("state.json: field 'pets[0].owner' is not allowed here"));
  });

  it('logs a line for every request when its logger logs info, and nothing otherwise', async () => {
    const logger = memoryLogger('info');
    await core({ logger }).handle(get('/v1/pets?limit=2', { authorization: 'Bearer dev-key', 'x-request-id': 'r-9' }));
    expect(logger.lines).toEqual([
      [
        'info',
        {
          req: { id: 'r-9', method: 'GET', url: '/v1/pets?limit=2' },
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        },
        'request completed',
      ],
    ]);
    const quiet = memoryLogger('error');
    await core({ logger: quiet }).handle(get('/v1/pets'));
    expect(quiet.lines).toEqual([]);
  });

  it('logs the values of credential-looking query parameters redacted, and the others as sent', async () => {
    const logger = memoryLogger('info');
    await core({ logger }).handle(
      get('/v1/pets?limit=2&api_key=s3cret-k3y&token=t0ken', { authorization: 'Bearer dev-key' }),
    );
    const [[, details]] = logger.lines as unknown as [[string, { req: { url: string } }]];
    expect(details.req.url).toBe('/v1/pets?limit=2&api_key=[redacted]&token=[redacted]');
    expect(JSON.stringify(logger.lines)).not.toMatch(/s3cret-k3y|t0ken/);
  });

  it('never rejects: a body reader that fails unexpectedly becomes a 500 Error body, and a log line', async () => {
    const logger = memoryLogger('error');
    const response = await core({ logger }).handle({
      method: 'POST',
      path: '/v1/pets',
      query: '',
      headers: { authorization: 'Bearer dev-key', 'content-type': 'application/json' },
      body: () => Promise.reject(new Error('the socket caught fire')),
    });
    expect(response.status).toBe(500);
    expect(json(response)).toEqual({
      code: 'internal_error',
      message: 'the mock failed unexpectedly; its log has the cause',
      status: 500,
    });
    expect(logger.lines.map(([level, , message]) => `${level}: ${message}`)).toEqual([
      'error: unexpected error while answering a request',
    ]);
  });
});

describe('createMockCore on a document or fixture it cannot serve', () => {
  it('stops with a DocumentError, before any request, on a broken document', () => {
    const broken = structuredClone(defaultDocument) as OpenAPIV3.Document;
    (broken.components?.schemas?.NewPet as { type: string }).type = 'objekt';
    expect(() => core({ document: broken, documentSource: 'mine.yaml' })).toThrow(DocumentError);
    expect(() => core({ document: broken, documentSource: 'mine.yaml' })).toThrow(/^mine\.yaml: schema at /);
  });

  it('names at start-up an operation the model cannot place, and answers it 501 without a fallback', async () => {
    const withReport = structuredClone(defaultDocument) as OpenAPIV3.Document;
    withReport.paths['/reports'] = {
      post: {
        operationId: 'sendReport',
        responses: { '202': { description: 'Accepted' }, '401': { $ref: '#/components/responses/Unauthorized' } },
      },
    };
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_details: unknown, message: string) => void warnings.push(message) };
    const mock = core({ document: withReport, logger });
    expect(warnings).toEqual([
      'sendReport (POST /reports) has no behaviour of the kit: it has no JSON object request body; it answers 501 not_implemented (x-petstore-kind places an operation)',
    ]);
    const response = await mock.handle({
      method: 'POST',
      path: '/v1/reports',
      query: '',
      headers: { authorization: 'Bearer dev-key' },
    });
    expect(response.status).toBe(501);
  });

  it("serves the admin API for a document whose Error refers to other schemas, with the document's Error", async () => {
    const document = structuredClone(defaultDocument) as OpenAPIV3.Document & {
      components: { schemas: Record<string, OpenAPIV3.SchemaObject> };
    };
    document.components.schemas.Code = { type: 'string', pattern: '^[a-z_]+$' };
    (document.components.schemas.Error as OpenAPIV3.SchemaObject).properties!.code = {
      $ref: '#/components/schemas/Code',
    };
    const mock = core({ document });
    expect((await mock.handle(get('/__admin/scenarios'))).status).toBe(200);
    const refused = await mock.handle(get('/__admin/scenarios', {}));
    expect(refused.status).toBe(401);
    expect(json(refused)).toMatchObject({ code: 'unauthorized' });
  });

  it('stops with a FixtureError on an unknown scenario, naming the known ones', () => {
    expect(() => core({ scenario: 'nope' })).toThrow(
      new FixtureError("unknown scenario 'nope' (known: default, edge-cases, empty, large, one-of-each-status)"),
    );
  });

  it('stops with a FixtureError naming the fixture of a broken one', () => {
    expect(() =>
      core({
        fixtures: { ...defaultFixtures, shop: { description: 'x', pets: [{ id: 1, name: 'A', categoryId: 1.5 }] } },
        fixtureSource: (name) => `fixtures/${name}.yaml`,
      }),
    ).toThrow("fixtures/shop.yaml: field 'pets[0].categoryId' must be integer");
  });
});

describe('createMockCore with pets generated on demand (a browser)', () => {
  /** A generator that answers when `release` is called. */
  function deferred(): { generateItems: GenerateItems; release(): void; fail(error: Error): void } {
    let settle: { resolve(): void; reject(error: Error): void } | undefined;
    return {
      generateItems: (options) =>
        new Promise((resolve, reject) => {
          settle = { resolve: () => resolve(generateItems(options)), reject };
        }),
      release: () => settle?.resolve(),
      fail: (error) => settle?.reject(error),
    };
  }

  it('holds requests until the first scenario is ready, then answers them from it', async () => {
    const generator = deferred();
    const mock = core({ generateItems: generator.generateItems, pets: 3 });
    expect(() => mock.store).toThrow('the mock is not ready yet: await mock.ready first');
    let answered = false;
    const pending = mock.handle(get('/v1/pets')).then((response) => ((answered = true), response));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    generator.release();
    await mock.ready;
    const response = await pending;
    expect(response.status).toBe(200);
    expect(json(response)).toHaveLength(3);
    expect(petsIn(mock.store).size).toBe(3);
  });

  it('answers 500 mock_failed, naming the scenario, when its pets cannot be generated', async () => {
    const generator = deferred();
    const logger = memoryLogger('error');
    const mock = core({ generateItems: generator.generateItems, logger });
    const pending = mock.handle(get('/v1/pets'));
    generator.fail(new Error('the Faker chunk could not be loaded'));
    await expect(mock.ready).rejects.toMatchObject({ code: 'mock_failed' });
    const response = await pending;
    expect(response.status).toBe(500);
    expect(json(response)).toEqual({
      code: 'mock_failed',
      message: "scenario 'default' could not be loaded: the Faker chunk could not be loaded",
      status: 500,
    });
    expect(logger.lines.map(([, , message]) => message)).toContain('the first scenario could not be loaded');
  });

  it('is ready at once for a scenario of literal pets', async () => {
    const generator = deferred();
    const mock = core({ generateItems: generator.generateItems, scenario: 'one-of-each-status' });
    expect(petsIn(mock.store).size).toBe(3);
    await expect(mock.ready).resolves.toBeUndefined();
  });
});
