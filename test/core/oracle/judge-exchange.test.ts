import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { classifyRequest, type Credential } from '../../../src/core/oracle/classify-request.js';
import { judgeExchange } from '../../../src/core/oracle/judge-exchange.js';
import { matchRoute } from '../../../src/core/pipeline/match-route.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));

interface Sent {
  method?: string;
  path: string;
  query?: string;
  body?: string;
  headers?: Record<string, string>;
  credential?: Credential;
}

/** A request as the oracle classifies it: the key sent (valid unless told), the path routed as the mock routes it. */
function request({ method = 'GET', path, query = '', body, headers = {}, credential = 'valid' }: Sent) {
  const { operation, pathParams } = matchRoute(compiled, method, path, { basePath: '', path });
  const sentHeaders: Record<string, string> = { authorization: 'Bearer key', ...headers };
  if (body !== undefined) sentHeaders['content-type'] ??= 'application/json';
  const classified = classifyRequest({
    operation,
    pathParams,
    query,
    headers: sentHeaders,
    body: body === undefined ? undefined : new TextEncoder().encode(body),
  });
  return credential === 'valid' || credential === 'wrong' ? { ...classified, credential } : classified;
}

function judge(sent: Sent, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return judgeExchange(compiled, request(sent), {
    status,
    contentType: text === '' ? undefined : (headers['content-type'] ?? 'application/json'),
    body: text,
    headers: { 'www-authenticate': 'Bearer', deprecation: '@1795305600', ...headers },
  }).findings;
}

const rulesOf = (findings: ReadonlyArray<{ rule: string; level: string }>) =>
  findings.map((f) => `${f.level} ${f.rule}`);
const error = (status: number, code = 'x') => ({ code, message: 'no', status });
const pet = (id: number | string, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'Rex',
  categoryId: 1,
  ...extra,
});
const pets = (count: number, status = 'available') =>
  Array.from({ length: count }, (_, index) => pet(index + 1, { status }));

describe('judgeExchange: the answer a request may get', () => {
  it('passes a documented answer to a valid request', () => {
    expect(judge({ path: '/pets' }, 200, pets(3))).toEqual([]);
    expect(judge({ path: '/pets/7' }, 404, error(404))).toEqual([]);
  });

  it('fails an undocumented status to a valid request, and a server error', () => {
    expect(rulesOf(judge({ path: '/pets' }, 400, error(400)))).toEqual(['fail documented-status']);
    expect(rulesOf(judge({ path: '/pets/7' }, 500, error(500)))).toEqual(['fail documented-status']);
  });

  it('observes a 429, and a 503 with Retry-After, instead of failing them', () => {
    expect(rulesOf(judge({ path: '/pets' }, 429, error(429), { 'retry-after': '1' }))).toEqual([
      'observed rate-limited',
    ]);
    expect(rulesOf(judge({ path: '/pets' }, 503, error(503), { 'retry-after': '2' }))).toEqual([
      'observed rate-limited',
    ]);
    expect(rulesOf(judge({ path: '/pets' }, 503, error(503)))).toEqual(['fail documented-status']);
  });

  it('still fails a rate-limit answer that is not an Error body', () => {
    const html = judge({ path: '/pets' }, 429, '<h1>slow down</h1>', { 'content-type': 'text/html' });
    expect(rulesOf(html)).toEqual(['fail error-body', 'observed rate-limited']);
  });

  it("lets a 304 answer the client's own conditional GET, and fails one that answers an unconditional GET", () => {
    expect(rulesOf(judge({ path: '/pets/7', headers: { 'if-none-match': '"abc"' } }, 304, undefined))).toEqual([
      'observed not-modified',
    ]);
    expect(rulesOf(judge({ path: '/pets/7' }, 304, undefined))).toEqual(['fail documented-status']);
  });
});

describe('judgeExchange: authentication', () => {
  it('fails anything but 401 to a request without a key, a malformed one or a wrong one, whatever else it holds', () => {
    expect(rulesOf(judge({ path: '/pets', credential: 'none', headers: { authorization: '' } }, 200, pets(1)))).toEqual(
      ['fail auth-required'],
    );
    const unkeyed = request({ method: 'POST', path: '/pets', body: '{"name": ' });
    const noKey = judgeExchange(
      compiled,
      { ...unkeyed, credential: 'none' },
      {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify(error(400)),
        headers: {},
      },
    );
    expect(rulesOf(noKey.findings)).toEqual(['fail auth-required']);
    expect(rulesOf(judge({ path: '/pets', credential: 'wrong' }, 200, pets(1)))).toEqual(['fail auth-required']);
    expect(judge({ path: '/pets', credential: 'wrong' }, 401, error(401))).toEqual([]);
  });

  it('fails a 401 to the valid key, naming the scheme when it was written in another case', () => {
    expect(rulesOf(judge({ path: '/pets' }, 401, error(401)))).toEqual(['fail valid-key-accepted']);
    const lower = judge({ path: '/pets', headers: { authorization: 'bearer key' } }, 401, error(401));
    expect(rulesOf(lower)).toEqual(['fail auth-scheme-case']);
  });

  it('warns about a 401 without a WWW-Authenticate challenge', () => {
    const found = judgeExchange(compiled, request({ path: '/pets', credential: 'wrong' }), {
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify(error(401)),
      headers: {},
    }).findings;
    expect(rulesOf(found)).toEqual(['warn www-authenticate']);
  });
});

describe('judgeExchange: what the request was', () => {
  const create = (body: string) => ({ method: 'POST', path: '/pets', body });

  it('fails an invalid body accepted, or refused with another status than the documented 400', () => {
    expect(rulesOf(judge(create('{"name":"Rex"}'), 201, pet(9)))).toEqual(['fail invalid-input-refused']);
    expect(rulesOf(judge(create('{"name":"Rex"}'), 422, error(422)))).toEqual(['fail invalid-input-refused']);
    expect(rulesOf(judge(create('{"name":"Rex",'), 500, error(500)))).toEqual(['fail invalid-input-refused']);
    expect(judge(create('{"name":"Rex"}'), 400, error(400))).toEqual([]);
  });

  it('warns when 7.0 or 1e0 is accepted as an integer, and passes its refusal', () => {
    expect(rulesOf(judge(create('{"name":"Rex","categoryId":7.0}'), 201, pet(9, { categoryId: 7 })))).toEqual([
      'warn lenient-input',
    ]);
    expect(rulesOf(judge(create('{"name":"Rex","categoryId":70e-1}'), 201, pet(9, { categoryId: 7 })))).toEqual([
      'warn lenient-input',
    ]);
    expect(judge(create('{"name":"Rex","categoryId":1e0}'), 400, error(400))).toEqual([]);
  });

  it('warns when limit=7.0 is read as 7, but tells a page that ignored it from one that read it', () => {
    const list = (query: string) => ({ method: 'GET', path: '/pets', query });
    expect(rulesOf(judge(list('limit=7.0'), 200, pets(7)))).toEqual(['warn lenient-input']);
    // A deployment that ignores a limit it cannot read answers its default page: no acceptance is shown.
    const ignored = judge(list('limit=7.0'), 200, pets(20));
    expect(rulesOf(ignored)).toEqual(['observed open-input']);
    expect(ignored[0]?.message).toContain('20 items: it did not read limit as 7');
    // limit=20.0 against a default of 20: reading it and ignoring it give the same page.
    const ambiguous = judge(list('limit=20.0'), 200, pets(20));
    expect(rulesOf(ambiguous)).toEqual(['observed open-input']);
    expect(ambiguous[0]?.message).toContain('cannot be told from ignoring it');
  });

  it('warns when a valid body is refused with a clean 400 Error, and fails an unclean refusal', () => {
    expect(rulesOf(judge(create('{"name":"Rex","categoryId":9}'), 400, error(400, 'unknown_category')))).toEqual([
      'warn valid-value-refused',
    ]);
    const html = judge(create('{"name":"Rex","categoryId":9}'), 400, '<b>no</b>', { 'content-type': 'text/html' });
    expect(rulesOf(html)).toEqual(['fail media-type']);
  });

  it('observes any clean answer to an input the spec leaves open, but fails one without an Error body', () => {
    expect(rulesOf(judge({ path: '/pets', query: 'limit=0' }, 400, error(400)))).toEqual(['observed open-input']);
    expect(rulesOf(judge({ path: '/pets', query: 'limit=0' }, 500, error(500)))).toEqual(['observed open-input']);
    expect(rulesOf(judge({ path: '/pets', query: 'status=unknown' }, 200, []))).toEqual(['observed open-input']);
    const html = judge({ path: '/pets', query: 'limit=0' }, 500, '<h1>oops</h1>', { 'content-type': 'text/html' });
    expect(rulesOf(html)).toEqual(['fail error-body', 'observed open-input']);
  });
});

describe('judgeExchange: what a success holds', () => {
  it('fails a page longer than its limit, or than the default of 20, filtered or not', () => {
    expect(rulesOf(judge({ path: '/pets', query: 'limit=2' }, 200, pets(3)))).toEqual(['fail page-within-limit']);
    expect(rulesOf(judge({ path: '/pets' }, 200, pets(21)))).toEqual(['fail page-within-limit']);
    expect(rulesOf(judge({ path: '/pets', query: 'status=sold&limit=1' }, 200, pets(2, 'sold')))).toEqual([
      'fail page-within-limit',
    ]);
    expect(judge({ path: '/pets', query: 'limit=2' }, 200, pets(2))).toEqual([]);
  });

  it('fails a pet of another status in a filtered page, and the same id twice', () => {
    expect(rulesOf(judge({ path: '/pets', query: 'status=sold' }, 200, pets(1, 'available')))).toEqual([
      'fail status-filter',
    ]);
    expect(rulesOf(judge({ path: '/pets' }, 200, [pet(1), pet(1)]))).toEqual(['fail unique-ids']);
  });

  it('judges a page it judged before the same way, for each request that gets it', () => {
    // The same bytes come back judged from the cache; what depends on the request is judged for each one.
    const twice = [pet(1), pet(1, { status: 'sold' })];
    for (let round = 0; round < 3; round++) {
      expect(rulesOf(judge({ path: '/pets' }, 200, twice))).toEqual(['fail unique-ids']);
      expect(rulesOf(judge({ path: '/pets', query: 'status=sold' }, 200, twice))).toEqual([
        'fail status-filter',
        'fail unique-ids',
      ]);
      expect(rulesOf(judge({ path: '/pets', query: 'limit=1' }, 200, twice))).toEqual([
        'fail page-within-limit',
        'fail unique-ids',
      ]);
      expect(judge({ path: '/pets' }, 200, pets(2))).toEqual([]);
    }
  });

  it('fails getPet answering another pet, also for an id the document does not allow', () => {
    expect(rulesOf(judge({ path: '/pets/7' }, 200, pet(8)))).toEqual(['fail requested-item']);
    expect(rulesOf(judge({ path: '/pets/not-an-id' }, 200, pet(8)))).toEqual([
      'observed open-input',
      'fail requested-item',
    ]);
    expect(
      judge({ path: '/pets/9223372036854775807' }, 200, JSON.parse('{"id":1,"name":"x","categoryId":1}')),
    ).toHaveLength(1);
    // 1.0 read leniently as 1, answering pet 1: lenient, not a wrong pet.
    expect(rulesOf(judge({ path: '/pets/1.0' }, 200, pet(1)))).toEqual(['warn lenient-input']);
  });

  it('fails a create whose echo differs from what was sent, byte for byte, and a null status', () => {
    const sent = '{"name":"  Rex  ","categoryId":9007199254740993}';
    const trimmed = judgeExchange(compiled, request({ method: 'POST', path: '/pets', body: sent }), {
      status: 201,
      contentType: 'application/json',
      body: '{"id":5,"name":"Rex","categoryId":9007199254740993}',
      headers: {},
    }).findings;
    expect(rulesOf(trimmed)).toEqual(['fail created-echo']);
    expect(trimmed[0]?.message).toContain(`'name': sent "  Rex  ", got "Rex"`);
    const rounded = judgeExchange(compiled, request({ method: 'POST', path: '/pets', body: sent }), {
      status: 201,
      contentType: 'application/json',
      body: '{"id":5,"name":"  Rex  ","categoryId":9007199254740992}',
      headers: {},
    }).findings;
    expect(rulesOf(rounded)).toEqual(['fail created-echo']);
    const nullStatus = judge(
      { method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1}' },
      201,
      pet(5, { status: null }),
    );
    expect(rulesOf(nullStatus)).toEqual(['fail schema']);
    expect(
      judge(
        { method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1}' },
        201,
        pet(5, { status: 'pending' }),
      ),
    ).toEqual([]);
  });

  it('warns of a text echoed in another normal form (the same text to Unicode), and fails any other change of it', () => {
    const echo = (sentName: string, echoedName: string) =>
      rulesOf(
        judge(
          { method: 'POST', path: '/pets', body: JSON.stringify({ name: sentName, categoryId: 1 }) },
          201,
          pet(5, { name: echoedName }),
        ),
      );
    const decomposed = 'Zoe\u0308 Cafe\u0301';
    expect(echo(decomposed, decomposed.normalize('NFC'))).toEqual(['warn text-normalised']);
    expect(echo('Zoë', 'Zoë'.normalize('NFD'))).toEqual(['warn text-normalised']);
    // A compatibility mapping, a case change, a trim: another text.
    expect(echo('\ufb01ne', 'fine')).toEqual(['fail created-echo']);
    expect(echo('Zoë', 'ZOË')).toEqual(['fail created-echo']);
    expect(echo(` ${decomposed}`, decomposed.normalize('NFC'))).toEqual(['fail created-echo']);
    const both = judge(
      { method: 'POST', path: '/pets', body: JSON.stringify({ name: decomposed, categoryId: 7 }) },
      201,
      pet(5, { name: decomposed.normalize('NFC'), categoryId: 8 }),
    );
    expect(rulesOf(both)).toEqual(['fail created-echo', 'warn text-normalised']);
    expect(both[1]?.message).toBe(
      `the created item holds a canonically equivalent text in another normal form: 'name': sent "Zoe\\u0308 Cafe\\u0301", got "Zoë Café"`,
    );
  });

  it("lets a create leave out a field the document does not name, even one called 'constructor'", () => {
    const sent = '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":"yes"}},"nick":"R"}';
    expect(judge({ method: 'POST', path: '/pets', body: sent }, 201, pet(5))).toEqual([]);
  });

  it('warns when the deprecated operation announces nothing', () => {
    const found = judgeExchange(compiled, request({ path: '/pets/1' }), {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(pet(1)),
      headers: {},
    }).findings;
    expect(rulesOf(found)).toEqual(['warn deprecation-header']);
  });
});

describe('judgeExchange: the same exchange judged again', () => {
  it('judges the same answer to the same request again by the headers it carries this time', () => {
    const sent = request({ path: '/pets', credential: 'valid' });
    const text = JSON.stringify(error(401));
    const answer = (headers: Record<string, string>) => ({
      status: 401,
      contentType: 'application/json',
      body: text,
      headers,
    });
    expect(rulesOf(judgeExchange(compiled, sent, answer({ 'www-authenticate': 'Bearer' })).findings)).toEqual([
      'fail valid-key-accepted',
    ]);
    // The same bytes to the same request, now without the challenge: the rule that reads the header is asked again.
    expect(rulesOf(judgeExchange(compiled, sent, answer({})).findings)).toEqual([
      'warn www-authenticate',
      'fail valid-key-accepted',
    ]);
  });

  it('judges the same answer to another request anew, and hands back findings no caller can change', () => {
    const page = JSON.stringify(pets(3));
    const answer = { status: 200, contentType: 'application/json', body: page, headers: {} };
    const first = judgeExchange(compiled, request({ path: '/pets', query: 'limit=5' }), answer).findings;
    expect(first).toEqual([]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(rulesOf(judgeExchange(compiled, request({ path: '/pets', query: 'limit=2' }), answer).findings)).toEqual([
      'fail page-within-limit',
    ]);
  });
});
