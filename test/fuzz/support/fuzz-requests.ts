import fc from 'fast-check';

/**
 * A body, described compactly so that a counterexample prints in a few lines
 * even when the body is a megabyte: `text` is sent as UTF-8, `latin1` byte for
 * byte (to send invalid UTF-8), `repeat` is `before + repeat × times + after`
 * and `nest` is `open × depth + inner + close × depth`.
 */
export type FuzzBody =
  | { text: string }
  | { latin1: string }
  | { repeat: string; times: number; before?: string; after?: string }
  | { nest: string; close: string; depth: number; inner: string };

/** One generated request. Header values are text; they go on the wire as UTF-8 bytes. */
export interface FuzzRequest {
  method: string;
  /** Path and query as sent: printable ASCII only, never normalised. */
  target: string;
  headers: Record<string, string>;
  body?: FuzzBody;
}

export interface FuzzRequestSettings {
  /** The accepted bearer key. */
  key: string;
  /** The mock's body limit in bytes: oversize bodies are generated just above it. */
  bodyLimit: number;
  /** Scenario names the admin API knows. */
  scenarios: readonly string[];
}

/** The kinds of request the suite generates; `mixed` draws from all the others. */
export type FuzzRequestKind = 'routes' | 'queries' | 'headers' | 'bodies' | 'mixed';

/** The bytes a body description stands for. */
export function fuzzBodyBytes(body: FuzzBody): Buffer {
  if ('text' in body) return Buffer.from(body.text, 'utf8');
  if ('latin1' in body) return Buffer.from(body.latin1, 'latin1');
  if ('repeat' in body) return Buffer.from(`${body.before ?? ''}${body.repeat.repeat(body.times)}${body.after ?? ''}`);
  return Buffer.from(`${body.nest.repeat(body.depth)}${body.inner}${body.close.repeat(body.depth)}`, 'utf8');
}

/**
 * Percent-encodes everything outside printable ASCII (UTF-8, and lone
 * surrogates as their WTF-8 bytes), so that any text can be a path segment or
 * a query part while `%`, `/`, `.`, `?` and `#` stay as generated.
 */
export function toWireText(text: string): string {
  let wire = '';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x21 && code <= 0x7e) {
      wire += text[index];
      continue;
    }
    const point = text.codePointAt(index) ?? code;
    if (point > 0xffff) index++;
    const bytes =
      point >= 0xd800 && point <= 0xdfff
        ? [0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f)]
        : [...Buffer.from(String.fromCodePoint(point), 'utf8')];
    wire += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return wire;
}

/** Node refuses ASCII control characters in header values; everything else may be sent. */
const headerSafe = (text: string): string =>
  [...text].filter((char) => char === '\t' || (char >= ' ' && char !== '\x7f')).join('');

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.WeightedArbitrary<T> => ({ weight, arbitrary });

/** Lone surrogates, combining marks, right-to-left text, emoji, NUL: text that breaks naive code. */
const hostileText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    '\ud800',
    '\udfff\ud800',
    'e\u0301',
    '\u202eabc',
    '🐶',
    '\u0000',
    '\ufeff',
    'ß',
    'İ',
    '١٢',
    '１２',
    '',
  ),
);

// ---------------------------------------------------------------- methods

const knownMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** Methods Node's HTTP parser accepts beyond the common ones (an unknown token is refused before the app). */
const rareMethods = ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'REPORT', 'PURGE', 'MOVE', 'COPY'] as const;

const anyMethod = fc.oneof(
  weighted(6, fc.constantFrom('GET', 'POST')),
  weighted(3, fc.constantFrom(...knownMethods)),
  weighted(1, fc.constantFrom(...rareMethods)),
);

// ---------------------------------------------------------------- paths and ids

const int64Edges = [
  '0',
  '-0',
  '1',
  '2',
  '3',
  '4',
  '-1',
  '9007199254740991', // 2^53-1
  '9007199254740992', // 2^53
  '9007199254740993', // 2^53+1
  '-9007199254740991',
  '-9007199254740992',
  '9223372036854775807', // int64 max
  '9223372036854775808',
  '-9223372036854775808', // int64 min
  '-9223372036854775809',
  '18446744073709551615',
  '9007199254740000',
];

const notNumbers = [
  'abc',
  '1.5',
  '1.0',
  '0x10',
  '1e3',
  '1E3',
  '+1',
  '01',
  '00',
  '1_000',
  '1,2',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '[1]',
  '{}',
  ' 1',
  '1 ',
  '\t1',
  '1\n',
  '--1',
  '-',
  '١',
  '１',
  '𝟙',
  '½',
];

const digits = fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9');

/** A pet id as text: int64 edges, numbers of every size, huge digit strings and non-numbers. */
export const petIdText: fc.Arbitrary<string> = fc.oneof(
  weighted(4, fc.constantFrom(...int64Edges)),
  weighted(2, fc.integer({ min: -5, max: 60 }).map(String)),
  weighted(2, fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String)),
  weighted(1, fc.double().map(String)),
  weighted(1, fc.string({ unit: digits, minLength: 16, maxLength: 400 })),
  weighted(3, fc.constantFrom(...notNumbers)),
  weighted(1, hostileText),
);

const segmentText = fc.oneof(
  weighted(4, fc.constantFrom('pets', 'scenarios', 'scenario', 'reset', 'requests', 'v1', '__admin')),
  weighted(
    2,
    fc.constantFrom('', '.', '..', '%2e', '%2E%2E', '%2F', '%2f..', '%', '%zz', '%00', '%C0%AE', ';', 'Pets'),
  ),
  weighted(2, petIdText),
  weighted(1, hostileText),
  weighted(1, fc.string({ unit: 'grapheme-ascii', maxLength: 10 })),
);

/** A path that hits a route most of the time, and otherwise anything a client could send. */
const pathText = fc.oneof(
  weighted(
    5,
    fc.constantFrom(
      '/v1/pets',
      '/__admin/scenarios',
      '/__admin/scenario',
      '/__admin/reset',
      '/__admin/requests',
      '/__admin/sessions',
      '/__admin/sessions/fuzz-a',
      '/__admin/sessions/default',
      '/__admin/faults',
      '/__admin/latency',
      '/__admin/health',
      '/openapi.json',
      '/openapi.yaml',
    ),
  ),
  weighted(
    4,
    fc
      .tuple(petIdText, fc.constantFrom('', '', '', '/', '/x', '//', '/..', '/%2e%2e'))
      .map(([id, suffix]) => `/v1/pets/${toWireText(id)}${suffix}`),
  ),
  weighted(
    3,
    fc
      .tuple(
        fc.constantFrom('/v1', '/v1', '/__admin', '', '/V1', '/v2', '//v1', '/v1/', '/v1/.', '/%76%31', '/v1/..', '/.'),
        fc.array(segmentText, { maxLength: 4 }),
      )
      .map(([prefix, segments]) => `${prefix}/${segments.map(toWireText).join('/')}`),
  ),
  weighted(
    1,
    fc.constantFrom('/', '//', '/v1', '/v1/', '/__admin', '/__admin/', '/v1/pets/', '/v1//pets', '/v1/pets/.'),
  ),
);

// ---------------------------------------------------------------- query strings

const queryName = fc.oneof(
  weighted(6, fc.constantFrom('limit', 'status')),
  weighted(
    2,
    fc.constantFrom(
      'Limit',
      'STATUS',
      'limit[]',
      'status[]',
      'status[0]',
      'page',
      'offset',
      '',
      '__proto__',
      '__proto__[polluted]',
      'constructor[prototype][polluted]',
      'toString',
      'hasOwnProperty',
    ),
  ),
  weighted(1, hostileText),
);

const queryValue = fc.oneof(
  weighted(
    3,
    fc.constantFrom('1', '20', '100', '0', '101', '-1', '1.0', '1e2', ' 1', '01', '0x10', '', '9007199254740993'),
  ),
  weighted(
    3,
    fc.constantFrom('available', 'pending', 'sold', 'Available', 'SOLD', 'available,pending', 'null', ' sold'),
  ),
  weighted(1, fc.integer({ min: -200, max: 300 }).map(String)),
  weighted(1, petIdText),
  weighted(1, hostileText),
);

/** `?…` with repeated, unknown, empty and odd parameters; sometimes no `=`, `+` for spaces or `;` separators. */
const queryText = fc
  .tuple(
    fc.array(fc.tuple(queryName, fc.option(queryValue, { freq: 8, nil: undefined })), { maxLength: 5 }),
    fc.constantFrom('&', '&', '&', ';', '&&'),
    fc.boolean(),
  )
  .map(([pairs, separator, plusForSpace]) => {
    const encode = (text: string) => (plusForSpace ? toWireText(text.replace(/ /g, '+')) : toWireText(text));
    const parts = pairs.map(([name, value]) =>
      value === undefined ? encode(name) : `${encode(name)}=${encode(value)}`,
    );
    return `?${parts.join(separator)}`;
  });

// ---------------------------------------------------------------- headers

function authorizationValue(key: string): fc.Arbitrary<string | undefined> {
  const valid = fc.constantFrom(
    `Bearer ${key}`,
    `bearer ${key}`,
    `BEARER ${key}`,
    `BeArEr ${key}`,
    `Bearer  ${key}`,
    `Bearer\t${key}`,
    ` Bearer ${key} `,
  );
  const invalid = fc.oneof(
    fc.constantFrom(
      key,
      `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      `Basic ${key}`,
      'Bearer',
      'Bearer ',
      `Bearer ${key}x`,
      `Bearer ${key.toUpperCase()}`,
      `Bearer ${key} ${key}`,
      `Bearer ${key},`,
      `Bearer "${key}"`,
      `Token ${key}`,
      `Bearer: ${key}`,
      `Bearer=${key}`,
      `Bearer ${key.slice(0, -1)}`,
      'Bearer dev-key',
      `Bearer tést-${key}`,
      `Bearer ${key}\u00a0`,
      `Bearer ${key}\u200b`,
      '',
      ' ',
    ),
    fc.tuple(fc.constantFrom('Bearer ', 'Basic ', ''), hostileText).map(([scheme, text]) => `${scheme}${text}`),
    fc.integer({ min: 1000, max: 3000 }).map((length) => `Bearer ${'k'.repeat(length)}`),
  );
  return fc.oneof(weighted(6, valid), weighted(3, invalid.map(headerSafe)), weighted(1, fc.constant(undefined)));
}

const contentType = fc.oneof(
  weighted(8, fc.constant('application/json')),
  weighted(
    3,
    fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'application/problem+json',
      'application/json;;;',
      'application/json, text/plain',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      'application/*',
      '',
      ';',
      'application/json; charset=',
    ),
  ),
  weighted(1, hostileText.map(headerSafe)),
);

const preferValue = fc.constantFrom(
  'code=200',
  'code=201',
  'code=400',
  'code=401',
  'code=404',
  'code=405',
  'code=500',
  'code=503',
  'code=999',
  'code=abc',
  'code=',
  'code="401"',
  'code=401, example=nope',
  'example=default',
  'code=404;example=x',
  'respond-async',
  'wait=5',
  'return=minimal',
  'code=200, code=404',
  ',,,',
);

const extraHeaderName = fc.stringMatching(/^x-[a-z0-9-]{1,16}$/);

/** `arbitrary` in `percent` of the draws, nothing otherwise. */
const sometimes = <T>(percent: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof(weighted(100 - percent, fc.constant(undefined)), weighted(percent, arbitrary));

function headersArbitrary(key: string, authWeight: 'mostly-valid' | 'any'): fc.Arbitrary<Record<string, string>> {
  const authorization =
    authWeight === 'mostly-valid'
      ? fc.oneof(weighted(9, fc.constant<string | undefined>(`Bearer ${key}`)), weighted(1, authorizationValue(key)))
      : authorizationValue(key);
  return fc
    .record({
      authorization,
      'content-type': sometimes(90, contentType),
      prefer: sometimes(authWeight === 'any' ? 40 : 10, preferValue),
      'x-request-id': sometimes(20, fc.oneof(fc.uuid(), hostileText.map(headerSafe), fc.constant('a'.repeat(200)))),
      origin: sometimes(20, fc.constantFrom('http://localhost:3000', 'null', 'https://evil.example')),
      'petstore-session': sometimes(
        15,
        fc.oneof(
          weighted(4, fc.constantFrom('fuzz-a', 'fuzz-b', 'default', 'A.b_c-1')),
          weighted(1, fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/)),
          weighted(1, hostileText.map(headerSafe)),
          weighted(1, fc.constantFrom('', ' ', 'x'.repeat(65), 'a b', 'ü', 'a/b')),
        ),
      ),
      accept: sometimes(20, fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', '')),
      'content-encoding': sometimes(
        3,
        fc.constantFrom('gzip', 'deflate', 'br', 'GZIP ', 'identity', 'bogus', 'compress', 'gzip, gzip', 'x-gzip'),
      ),
      'access-control-request-method': sometimes(10, fc.constantFrom('POST', 'GET', 'DELETE')),
      'x-fuzz-filler': sometimes(
        authWeight === 'any' ? 10 : 2,
        fc.integer({ min: 1, max: 9000 }).map((length) => 'f'.repeat(length)),
      ),
      extra: sometimes(20, fc.array(fc.tuple(extraHeaderName, hostileText.map(headerSafe)), { maxLength: 40 })),
    })
    .map(({ extra, ...named }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(named)) if (value !== undefined) headers[name] = value;
      for (const [name, value] of extra ?? []) if (!(name in headers)) headers[name] = value;
      return headers;
    });
}

// ---------------------------------------------------------------- bodies

const petStatus = fc.constantFrom('available', 'pending', 'sold');

/** A NewPet that conforms to the document, as JSON text. */
const validNewPet = fc
  .record(
    {
      name: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), hostileText),
      categoryId: fc.oneof(fc.integer(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)),
      status: petStatus,
    },
    { requiredKeys: ['name', 'categoryId'] },
  )
  .map((pet) => JSON.stringify(pet));

/** A NewPet with exactly one field wrong (missing, mistyped, out of range or beyond what a double holds). */
const nearValidNewPet = fc
  .tuple(
    fc.constantFrom<Array<[string, string | undefined]>>(
      [
        ['name', undefined],
        ['name', '7'],
        ['name', 'null'],
        ['name', '["Rex"]'],
        ['name', '{"first":"Rex"}'],
        ['name', 'true'],
      ],
      [
        ['categoryId', undefined],
        ['categoryId', '"7"'],
        ['categoryId', '1.5'],
        ['categoryId', 'true'],
        ['categoryId', 'null'],
        ['categoryId', '9007199254740992'],
        ['categoryId', '9007199254740993'],
        ['categoryId', '-9007199254740993'],
        ['categoryId', '1e400'],
        ['categoryId', '-1e400'],
        ['categoryId', '1e-400'],
        ['categoryId', '-0'],
        ['categoryId', '1.0'],
        ['categoryId', '1E2'],
        ['categoryId', '0.1e1'],
        ['categoryId', '12345678901234567890123'],
        ['categoryId', '5e-324'],
        ['categoryId', '[]'],
      ],
      [
        ['status', '"Available"'],
        ['status', '""'],
        ['status', 'null'],
        ['status', '1'],
        ['status', '"sold "'],
        ['status', '["sold"]'],
      ],
      [
        ['id', '1'],
        ['id', '-1'],
        ['id', '"x"'],
        ['id', '9007199254740993'],
      ],
    ),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.integer({ min: -1000, max: 1000 }),
  )
  .chain(([mutations, name, categoryId]) =>
    fc.constantFrom(...mutations).map(([field, literal]) => {
      const fields: Record<string, string | undefined> = {
        name: JSON.stringify(name),
        categoryId: String(categoryId),
        [field]: literal,
      };
      const members = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
      return `{${members.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
    }),
  );

/** Keys that pollute prototypes in code that merges or assigns JSON naively. */
const pollutingBodies = [
  '{"__proto__":{"polluted":"yes"},"name":"x","categoryId":1}',
  '{"name":"x","categoryId":1,"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '{"name":"x","categoryId":1,"__proto__":{"status":"sold","id":1,"polluted":"yes"}}',
  '{"prototype":{"polluted":"yes"},"name":"x","categoryId":1}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '{"name":"__proto__","categoryId":1}',
  '{"__proto__":null,"name":"x","categoryId":1}',
  '{"__proto__":[],"name":"x","categoryId":1}',
  '{"toString":1,"valueOf":"x","hasOwnProperty":null,"name":"x","categoryId":1}',
  '{"name":{"__proto__":{"polluted":"yes"}},"categoryId":1}',
  '{"constructor":{"name":"x"},"name":"x","categoryId":1}',
  '{"name":"large","__proto__":{"name":"large"}}',
  '{"__proto__":{"name":"large"}}',
];

/** Every kind of JSON (and almost-JSON) a hostile client might send. */
function hostileJson(): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    weighted(
      3,
      fc.constantFrom(...pollutingBodies).map((text) => ({ text })),
    ),
    weighted(
      2,
      fc
        .tuple(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted'),
          fc.jsonValue({ maxDepth: 3 }),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map(([key, value, inner]) => ({
          text: `{"name":"x","categoryId":1,${JSON.stringify(key)}:{${JSON.stringify(key)}:${JSON.stringify(inner) ?? 'null'},"polluted":${JSON.stringify(value) ?? 'null'}}}`,
        })),
    ),
    weighted(
      2,
      fc
        .tuple(
          fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"name":', '}'], ['[{"__proto__":', '}]']),
          fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1000, max: 200_000 })),
          fc.constantFrom('1', '', 'null', '{}'),
        )
        .map(([[open, close], depth, inner]) => ({ nest: open, close, depth, inner })),
    ),
    weighted(
      1,
      fc.integer({ min: 1, max: 600_000 }).map((times) => ({
        repeat: 'x',
        times,
        before: '{"name":"',
        after: '","categoryId":1}',
      })),
    ),
    weighted(
      1,
      fc
        .constantFrom(
          '{"name":"a","name":"b","categoryId":1}',
          '{"name":"a","categoryId":1,"categoryId":1}',
          '{"name":"a","categoryId":1,"categoryId":2}',
          '{"name":"a","categoryId":1,"x":{"k":1,"k":2}}',
          '{"name":"scenario","name":"large"}',
        )
        .map((text) => ({ text })),
    ),
    weighted(
      2,
      fc
        .constantFrom(
          '{"name":"\\ud800","categoryId":1}',
          '{"name":"\\udfff\\ud800","categoryId":1}',
          '{"name":"\\u0000","categoryId":1}',
          '{"name":"\\uD83D\\uDC36","categoryId":1}',
          '{"name":"x","categoryId":1,"status":"\\u0073old"}',
          '{"name":"x","categoryId":1,"status":"sold\\u0000"}',
        )
        .map((text) => ({ text })),
    ),
    weighted(
      1,
      fc
        .constantFrom(
          '{"name":"\xed\xa0\x80","categoryId":1}',
          '{"name":"\xff","categoryId":1}',
          '{"name":"\xc0\xaf","categoryId":1}',
          '\xef\xbb\xbf{"name":"bom","categoryId":1}',
          '\xfe\xff\x00{',
          '{"name":"x","categoryId":1}\x00',
        )
        .map((latin1) => ({ latin1 })),
    ),
    weighted(
      2,
      fc
        .constantFrom(
          '{',
          '}',
          '{"name":"x",}',
          "{'name':'x','categoryId':1}",
          'NaN',
          'Infinity',
          '{"name":"x","categoryId":NaN}',
          '{"name":"x","categoryId":1} trailing',
          '{"name":"x","categoryId":1}{"name":"y","categoryId":2}',
          '// comment\n{"name":"x","categoryId":1}',
          '\ufeff{"name":"x","categoryId":1}',
          '\ufeff\ufeff{}',
          '{"name":"x","categoryId":01}',
          '{"name":"x","categoryId":.5}',
          '{"name":"x","categoryId":+1}',
          '{"name":x,"categoryId":1}',
          '{name:"x",categoryId:1}',
          '"',
          '"unterminated',
          '[1,2',
          '\u2028{}',
        )
        .map((text) => ({ text })),
    ),
  );
}

function bodyArbitrary(settings: FuzzRequestSettings): fc.Arbitrary<FuzzBody | undefined> {
  const { bodyLimit, scenarios } = settings;
  return fc.oneof(
    weighted(3, fc.constant(undefined)),
    weighted(6, text(validNewPet)),
    weighted(5, text(nearValidNewPet)),
    weighted(6, hostileJson()),
    weighted(
      2,
      text(
        fc
          .constantFrom(
            ...scenarios,
            '../../etc/passwd',
            'fixtures/default.yaml',
            './fixtures/large.yaml',
            '',
            'LARGE',
            '__proto__',
            'constructor',
            'toString',
            'hasOwnProperty',
          )
          .map((name) => JSON.stringify({ name })),
      ),
    ),
    weighted(2, text(fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'))),
    weighted(
      2,
      fc.oneof(
        text(
          fc.constantFrom('name=x&categoryId=1', '<pet><name>x</name></pet>', 'null', 'true', '[]', '"x"', '42', ''),
        ),
        text(fc.constantFrom(' ', '\n', '\r\n\t ')),
        text(fc.string({ unit: 'binary', maxLength: 64 })),
        fc.uint8Array({ maxLength: 64 }).map((bytes): FuzzBody => ({ latin1: Buffer.from(bytes).toString('latin1') })),
      ),
    ),
    weighted(
      1,
      fc
        .tuple(fc.integer({ min: -2, max: 4096 }), fc.constantFrom(' ', 'a', '[', '{'))
        .map(([over, unit]): FuzzBody => ({ repeat: unit, times: bodyLimit + over })),
    ),
    weighted(
      1,
      fc.integer({ min: 1, max: 2048 }).map((over): FuzzBody => ({
        repeat: 'x',
        times: bodyLimit + over,
        before: '{"name":"',
        after: '","categoryId":1}',
      })),
    ),
  );
}

// ---------------------------------------------------------------- requests

interface Weights {
  method: fc.Arbitrary<string>;
  path: fc.Arbitrary<string>;
  query: fc.Arbitrary<string>;
  headers: fc.Arbitrary<Record<string, string>>;
  body: fc.Arbitrary<FuzzBody | undefined>;
}

function requestArbitrary(parts: Weights): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ method: parts.method, path: parts.path, query: parts.query, headers: parts.headers, body: parts.body })
    .map(({ method, path, query, headers, body }) => ({
      method,
      target: `${path}${query}`,
      headers,
      ...(body === undefined ? {} : { body }),
    }));
}

/**
 * The request generators, one per kind, all seeded by fast-check: `routes`
 * (methods, paths and ids), `queries`, `headers`, `bodies`, and `mixed`, which
 * draws from all of them.
 */
export function fuzzRequests(settings: FuzzRequestSettings): Record<FuzzRequestKind, fc.Arbitrary<FuzzRequest>> {
  const noQuery = fc.constant('');
  const sometimesQuery = fc.oneof(weighted(4, noQuery), weighted(1, queryText));
  const noBody = fc.constant(undefined);
  const body = bodyArbitrary(settings);
  const validHeaders = headersArbitrary(settings.key, 'mostly-valid');
  const anyHeaders = headersArbitrary(settings.key, 'any');
  const routes = requestArbitrary({
    method: anyMethod,
    path: pathText,
    query: sometimesQuery,
    headers: validHeaders,
    body: fc.oneof(weighted(4, noBody), weighted(1, body)),
  });
  const queries = requestArbitrary({
    method: fc.oneof(weighted(9, fc.constant('GET')), weighted(1, anyMethod)),
    path: fc.oneof(weighted(6, fc.constant('/v1/pets')), weighted(1, pathText)),
    query: queryText,
    headers: validHeaders,
    body: fc.oneof(weighted(9, noBody), weighted(1, body)),
  });
  const headers = requestArbitrary({
    method: fc.oneof(weighted(4, fc.constantFrom('GET', 'POST')), weighted(1, anyMethod)),
    path: fc.oneof(weighted(4, fc.constantFrom('/v1/pets', '/v1/pets/1', '/__admin/reset')), weighted(1, pathText)),
    query: sometimesQuery,
    headers: anyHeaders,
    body: fc.oneof(weighted(1, noBody), weighted(1, text(validNewPet)), weighted(1, body)),
  });
  const bodies = requestArbitrary({
    method: fc.oneof(weighted(8, fc.constant('POST')), weighted(2, anyMethod)),
    path: fc.oneof(
      weighted(8, fc.constant('/v1/pets')),
      weighted(2, fc.constantFrom('/__admin/scenario', '/__admin/reset', '/v1/pets/1')),
      weighted(1, pathText),
    ),
    query: fc.oneof(weighted(9, noQuery), weighted(1, queryText)),
    headers: validHeaders,
    body,
  });
  const mixed = fc.oneof(routes, queries, headers, bodies);
  return { routes, queries, headers, bodies, mixed };
}

function text(arbitrary: fc.Arbitrary<string>): fc.Arbitrary<FuzzBody> {
  return arbitrary.map((value) => ({ text: value }));
}
