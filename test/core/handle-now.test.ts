import { describe, expect, it } from 'vitest';
import { createMockCore, type MockCoreOptions } from '../../src/core/create-mock-core.js';
import type { PlainRequest, PlainResponse } from '../../src/core/http/plain-http.js';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { generateItems } from '../../src/core/seed/generate-items.js';
import { defaultDocument } from '../../src/generated/default-document.js';
import { defaultFixtures } from '../../src/generated/default-fixtures.js';

const core = (options: Partial<MockCoreOptions> = {}) =>
  createMockCore({ document: defaultDocument, fixtures: defaultFixtures, generateItems, ...options });

const auth = { authorization: 'Bearer dev-key' };
const get = (path: string, headers: PlainRequest['headers'] = auth): PlainRequest => {
  const [pathname = '', query = ''] = path.split('?');
  return { method: 'GET', path: pathname, query, headers };
};
const create = (body: PlainRequest['body']): PlainRequest => ({
  method: 'POST',
  path: '/v1/pets',
  query: '',
  headers: { ...auth, 'content-type': 'application/json' },
  body,
});
const petText = '{"name":"Zoë","categoryId":9223372036854775807}';
const text = (response: PlainResponse) => new TextDecoder().decode(response.body);

/** What a client sees of an answer, less its request id (new for every request). */
function seen(response: PlainResponse) {
  const { 'x-request-id': id, ...headers } = response.headers;
  expect(id).toMatch(/^[\w.:-]+$/);
  return { status: response.status, headers, body: text(response) };
}

/** The first path of an item the scenario holds, read from its first page. */
function firstItemPath(response: PlainResponse): string {
  const [first] = JSON.parse(text(response)) as Array<{ id: number }>;
  return `/v1/pets/${first?.id}`;
}

describe('handleNow: the answer at once where every stage has it', () => {
  it('answers reads, a create with its bytes and refusals of the memory store at once, as handle answers them', async () => {
    const now = core({ scenario: 'one-of-each-status' });
    const later = core({ scenario: 'one-of-each-status' });
    const page = now.handleNow(get('/v1/pets?limit=2'));
    expect(page).not.toBeInstanceOf(Promise);
    const item = firstItemPath(page as PlainResponse);
    const bytes = () => new TextEncoder().encode(petText);
    for (const request of [
      get('/v1/pets?limit=2'),
      get(item),
      get('/v1/pets?status=sold'),
      create(bytes()),
      get('/v1/pets'),
      get('/v1/pets', {}),
      get('/v1/nowhere'),
      get('/v1/pets?limit=0'),
    ]) {
      const answer = now.handleNow(request);
      expect(answer, `${request.method} ${request.path}?${request.query}`).not.toBeInstanceOf(Promise);
      expect(seen(answer as PlainResponse)).toEqual(seen(await later.handle(request)));
    }
    expect(text(now.handleNow(create(bytes())) as PlainResponse)).toBe(
      '{"id":5,"name":"Zoë","categoryId":9223372036854775807}',
    );
  });

  it('journals an exchange it answered at once, as any other', () => {
    const mock = core({ scenario: 'one-of-each-status' });
    const answer = mock.handleNow(get('/v1/pets?limit=1', { ...auth, 'x-request-id': 'at-once-1' }));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(mock.journal.list().map((entry) => [entry.id, entry.method, entry.url, entry.status])).toEqual([
      ['at-once-1', 'GET', '/v1/pets?limit=1', 200],
    ]);
  });

  it('answers later, with the answer handle gives, what waits: a body still to read, a latency, a session’s fault', async () => {
    const mock = core({ scenario: 'one-of-each-status' });
    const reading = mock.handleNow(create(() => Promise.resolve(new TextEncoder().encode(petText))));
    expect(reading).toBeInstanceOf(Promise);
    expect((await reading).status).toBe(201);

    mock.setLatency({ min: 1, max: 1 });
    const delayed = mock.handleNow(get('/v1/pets?limit=1'));
    expect(delayed).toBeInstanceOf(Promise);
    expect((await delayed).status).toBe(200);
    mock.setLatency({ min: 0, max: 0 });
    expect(mock.handleNow(get('/v1/pets?limit=1'))).not.toBeInstanceOf(Promise);

    // A fault that answers 503 needs nothing to wait for: it is answered at once too.
    mock.scheduleFault({ status: 503 });
    const faulted = mock.handleNow(get('/v1/pets?limit=1'));
    expect(faulted).not.toBeInstanceOf(Promise);
    expect((faulted as PlainResponse).status).toBe(503);
  });

  it('waits for the first scenario while it is loading, then answers at once', async () => {
    let release: (() => void) | undefined;
    const mock = core({
      pets: 3,
      generateItems: (options) => new Promise((resolve) => (release = () => resolve(generateItems(options)))),
    });
    const waiting = mock.handleNow(get('/v1/pets'));
    expect(waiting).toBeInstanceOf(Promise);
    release?.();
    expect((await waiting).status).toBe(200);
    expect(mock.handleNow(get('/v1/pets'))).not.toBeInstanceOf(Promise);
  });

  it('never throws: a bug met at once is a 500 Error body given at once, and a log line', () => {
    const lines: string[] = [];
    const keep = (level: string) => (_details: object, message: string) => lines.push(`${level}: ${message}`);
    const logger: MockLogger = {
      error: keep('error'),
      warn: keep('warn'),
      info: keep('info'),
      debug: keep('debug'),
      isLevelEnabled: (level) => level === 'error',
    };
    const answer = core({ logger }).handleNow(
      create(() => {
        throw new Error('the socket caught fire');
      }),
    );
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as PlainResponse).status).toBe(500);
    expect(JSON.parse(text(answer as PlainResponse))).toEqual({
      code: 'internal_error',
      message: 'the mock failed unexpectedly; its log has the cause',
      status: 500,
    });
    expect(lines).toEqual(['error: unexpected error while answering a request']);
  });

  it('answers the admin API’s first request once its document is imported, as it answers the later ones', async () => {
    // A document object of its own: no mock of this process has compiled its admin API yet.
    const mock = core({ document: structuredClone(defaultDocument), scenario: 'one-of-each-status' });
    // The API's own requests never wait for it.
    expect(mock.handleNow(get('/v1/pets'))).not.toBeInstanceOf(Promise);
    const first = mock.handleNow(get('/__admin/store?resource=pets'));
    expect(first).toBeInstanceOf(Promise);
    const later = await mock.handleNow(get('/__admin/store?resource=pets'));
    expect(seen(await first)).toEqual(seen(later));
    expect(later.status).toBe(200);
  });

  it('makes a preflight that lists the documents’ methods wait for the admin API’s document, imported then', async () => {
    const preflight: PlainRequest = {
      method: 'OPTIONS',
      path: '/v1/pets',
      query: '',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    };
    const mock = core({ document: structuredClone(defaultDocument), cors: { origins: 'loopback' } });
    const first = mock.handleNow(preflight);
    expect(first).toBeInstanceOf(Promise);
    const answer = await first;
    expect(answer.status).toBe(204);
    // PUT is the admin API's (its latency and clock), which the API's document does not use.
    expect(String(answer.headers['access-control-allow-methods']).split(', ')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
    );
    expect(mock.handleNow(preflight)).not.toBeInstanceOf(Promise);
  });
});
