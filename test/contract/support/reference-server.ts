import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { NumberToken, parsePlainJson, writePlainJson } from './plain-json.js';

/**
 * An independent, deliberately plain implementation of the Pet Store animals API
 * (node:http only, hand-written validation and its own exact JSON: it shares no
 * code with the mock or the checks), with one switch per way a deployment can
 * break the contract. Integers are bigints throughout: every int64 is kept and
 * echoed exactly.
 */
export const breakages = {
  'missing-key-accepted': 'answers requests without an Authorization header',
  'unknown-key-accepted': 'accepts any bearer key',
  'wrong-scheme-accepted': 'accepts the key under any scheme (e.g. Basic)',
  'key-case-insensitive': 'compares the key without regard to letter case',
  'key-prefix-accepted': 'accepts any key that starts with the valid key',
  'key-truncation-accepted': 'accepts any key the valid key starts with',
  'key-first-8-chars': 'compares only the first 8 characters of the key',
  'auth-cache-leak': 'serves a cached GET answer to any caller once it was answered with the valid key',
  'auth-after-validation': 'validates the request before authenticating it',
  'malformed-401-body': 'answers 401 with { error, received } instead of an Error, echoing the credential it got',
  'text-401-echoing-key': 'answers 401 as text/plain, echoing the credential it got',
  'error-status-mismatch': 'sends Error bodies whose status differs from the HTTP status',
  'html-404': 'answers 404 with an HTML page',
  'text-plain-success': 'sends 200 responses as text/plain',
  'limit-ignored': 'ignores limit',
  'default-page-50': 'uses 50 as the default page size',
  'status-filter-ignored': 'ignores the status filter',
  'unfiltered-hides-sold': 'leaves sold pets out of unfiltered lists (most of its pets are sold)',
  'invalid-pet-in-list': 'lists pets whose categoryId is a string',
  'duplicate-ids': 'lists the same pet twice',
  'create-returns-200': 'answers createPet with 200 instead of 201',
  'create-echo-wrong': "answers createPet with status 'available' whatever was sent",
  'lost-writes': 'answers 201 but does not store the pet',
  'create-accepts-invalid': 'creates pets from bodies that break the schema',
  'lenient-types': "coerces wrong-typed fields (categoryId '7' is taken as 7)",
  'malformed-json-500': 'answers malformed JSON with 500',
  'category-id-as-double': 'stores categoryId as a double, rounding it beyond 2^53',
  'category-id-int32': 'stores categoryId as a 32-bit integer, wrapping it beyond 2^31-1',
  'int64-range-unchecked': 'accepts integers outside the int64 range',
  'decimal-integers-accepted': 'accepts 1.0 and 1e3 as integers',
  'decimal-integers-written': 'writes categoryId as a decimal (1.0) in its answers',
  'non-ascii-500': 'answers 500 to names with characters beyond ASCII',
  'name-truncated-255': 'cuts names to 255 characters',
  'name-nfc-normalised': 'normalises names to Unicode NFC',
  'name-unescaped-twice': 'decodes backslash escapes in names a second time',
  'empty-name-refused': 'refuses an empty name',
  'enum-case-insensitive': 'accepts status values in any letter case',
  'enum-trimmed': 'trims spaces around status values',
  'unknown-id-200': 'answers 200 with a made-up pet for unknown ids',
  'unknown-id-410': 'answers 410 (undocumented) for unknown ids',
  'get-wrong-pet': 'answers getPet with another pet',
  'pet-id-int32-500': 'answers 500 for petIds beyond 32 bits',
  'pet-id-unsafe-400': 'answers 400 for petIds beyond 2^53 (as the kit’s mock still does)',
  'status-null-echo': "writes 'status': null for a pet created without a status (in the 201 and later reads)",
  'name-trimmed': 'trims leading and trailing spaces from names (in the 201 and in what it stores)',
  'bearer-scheme-case-sensitive': "refuses the valid key when the scheme is not written 'Bearer' exactly",
  'filtered-limit-ignored': 'uses the default page size of 20 whatever limit says when the status filter is given',
  'empty-filter-returns-all': 'answers the unfiltered list when no pet has the asked status (it seeds no sold pets)',
  'bom-body': 'starts every JSON answer with a UTF-8 byte order mark',
  'html-500-for-open-inputs': 'answers an out-of-range limit or an unknown status filter with an HTML 500 page',
  'read-back-differs': 'echoes the sent name in the 201 but stores it cut to 64 characters',
  'created-id-reused': 'gives every 3rd created pet the id of the newest pet it holds, overwriting that pet',
  'create-without-auth-ok': 'answers createPet without an Authorization header with 201 (other requests still 401)',
  'default-limit-ignored-when-filtered':
    'returns up to 100 pets for a status-filtered list without limit (it seeds 90 pets, 30 of each status)',
  'rate-limit-without-retry': 'answers every 10th request with 429, an HTML page and no Retry-After',
  'status-echoed-not-stored':
    'echoes the status sent in the 201, but stores another (the next one of available, pending, sold)',
  'concurrent-same-id':
    'gives creates that overlap the same id (it reads the next id, waits on its store, then counts it), the later overwriting the earlier',
  'concurrent-create-lost':
    'acknowledges creates that overlap but keeps only one of them (it copies its store, adds the pet, and writes the copy back after a wait)',
  'create-dedup-by-body':
    'answers a create whose body equals an earlier one with that earlier pet (it deduplicates creates by a hash of the body)',
  'evicted-after-30-creates':
    'keeps only the 30 pets it created last: each create beyond evicts the oldest one it created',
  'evicted-after-seconds':
    'forgets a pet it created 0.1 s after creating it (a cache with a time to live, scaled down)',
  'non-ascii-never-listed':
    'stores a pet whose name has characters beyond ASCII and serves it by id, but never lists it',
  'content-length-chars':
    'counts characters, not bytes, in Content-Length, so an answer with a name beyond ASCII runs past it',
  'stale-list-etag':
    'gives each list query one strong ETag whatever the data, and keeps answering If-None-Match with 304 after creates',
  'not-modified-always': 'sends strong ETags, but answers 304 to any If-None-Match, whatever tag it names',
  'last-modified-frozen':
    'sends a Last-Modified that never moves (the day its data was seeded) and answers If-Modified-Since by it',
  'not-modified-with-body': 'sends ETags and answers a matching If-None-Match with 304, followed by the body',
} as const;

export type Breakage = keyof typeof breakages;

/** How a deployment answers an input the spec leaves open: a 400, 422 or 500 Error body. */
export type OpenInputRefusal = 'bad-request' | 'unprocessable' | 'server-error';

/** Refusals of a rate limiter (429) or an overloaded gateway (503), each with `Retry-After`. */
export interface Throttle {
  /** 429 Too Many Requests (default) or 503 Service Unavailable. */
  status?: 429 | 503;
  /**
   * Refuse every `everyNth` request (at least 2), then every request until `seconds` have passed:
   * a client that waits as `Retry-After` says is answered on its retry.
   */
  everyNth?: number;
  /** How long `everyNth` refusals ask the client to wait (default 1). */
  seconds?: number;
  /** Or: answer at most this many requests in each second of the clock, refuse the rest until the next one. */
  perSecond?: number;
  /** `Retry-After` as delay-seconds (default) or as an HTTP-date. */
  retryAfter?: 'seconds' | 'http-date';
}

export interface ReferenceOptions {
  token: string;
  breakage?: Breakage;
  /** How many pets to seed (default 30; 90 with default-limit-ignored-when-filtered). */
  pets?: number;
  /** The id of the first seeded pet; the next ones follow (default 1). */
  firstId?: bigint;
  /**
   * Statuses given to the seeded pets in turn (default: the three values in order; no sold pet with
   * empty-filter-returns-all, mostly sold ones with unfiltered-hides-sold).
   */
  statusCycle?: readonly string[];
  /** Send `application/json; charset=utf-8` (as Express does) instead of `application/json`. */
  charset?: boolean;
  /** Compress answers with gzip when the client accepts it. */
  gzip?: boolean;
  /** Add fields the schemas do not forbid to every Pet and Error. */
  extraFields?: boolean;
  /** The path before `/pets` (default `/v1`). */
  basePath?: string;
  /** Delay answers: the first by `firstMs`, every `everyNth` after it by `nthMs`, the rest by `otherMs`. */
  delay?: { firstMs: number; everyNth: number; nthMs: number; otherMs: number };
  /** Never return more pets than this in one page, whatever `limit` says. */
  pageCap?: number;
  /** List the newest pets (highest ids) first. */
  newestFirst?: boolean;
  /** Send `Deprecation` and `Sunset` on getPet (default true). */
  deprecationHeaders?: boolean;
  /** Only these categories exist: createPet refuses any other categoryId with a 400 Error ("invalid values"). */
  knownCategories?: { first: bigint; last: bigint };
  /** Stores categoryId in a signed integer of this many bits, refusing values outside it with a 400 Error. */
  categoryIdBits?: number;
  /** Refuses names longer than this many characters (code points) with a 400 Error. */
  maxNameLength?: number;
  /** A created pet is answered 201 at once, but getPet (404 meanwhile) and lists see it only after this long. */
  readLagMs?: number;
  /** Refuses some requests with 429 or 503 and `Retry-After`. */
  throttle?: Throttle;
  /** How long a racing create (the concurrent breakages) waits between reading and writing its store (default 10 ms). */
  raceMs?: number;
  /**
   * Instead of `raceMs`: a racing create waits between reading and writing its store until this many creates
   * are waiting there together, so that creates sent at once overlap however busy the machine is.
   */
  raceUntil?: number;
  /** Accepts integers written with a zero fraction or an exponent (`7.0`, `1e0`) as categoryId and petId. */
  lenientIntegers?: boolean;
  /**
   * Sends an `ETag` on GET answers (a hash of the bytes sent; `'weak'`: a weak one, `W/"…"`) and answers a
   * matching `If-None-Match` with 304.
   */
  etags?: boolean | 'weak';
  /**
   * Sends `Last-Modified` on GET answers (when its data last changed, to the second) and answers
   * `If-Modified-Since` at or after it with 304 (without `If-None-Match`, RFC 9110 §13.1.3).
   */
  lastModified?: boolean;
  /**
   * Keys besides `token` that it accepts, each a tenant with a store of its own (seeded alike, its ids counting
   * from `firstId`): the same id names another pet for each key.
   */
  tenantKeys?: readonly string[];
  /** The status of a pet created without one (default: none, the field stays absent). */
  defaultStatus?: string;
  /** A created pet of status `from` takes status `to` after `afterMs`. */
  statusTransition?: { from: string; to: string; afterMs: number };
  /** Send `WWW-Authenticate: Bearer` with every 401 (default true). */
  wwwAuthenticate?: boolean;
  /** How listPets answers a limit outside 1..100 or not an integer (default 'bad-request'); 'clamp' answers 200. */
  outOfRangeLimit?: OpenInputRefusal | 'clamp';
  /** How listPets answers an unknown status filter (default 'bad-request'); 'empty' answers 200 with `[]`. */
  unknownStatusFilter?: OpenInputRefusal | 'empty';
  /** The time in milliseconds (default `Date.now`): tests step it to see lags, transitions and throttling. */
  clock?: () => number;
  /**
   * Instead of `clock`: a clock of its own, which starts at the time it was started and moves on by this many
   * milliseconds with each request it receives, and by nothing else. What it does by time then depends on the
   * requests it got, never on how fast the machine is.
   */
  msPerRequest?: number;
  /**
   * Serves `PUT /pets/{petId}` (replaces a pet's fields: 200 with the pet, 400, 404) and
   * `DELETE /pets/{petId}` (204, then 404), as the with-replace-and-delete document has them. Off
   * unless asked: the kit's own document has neither.
   */
  replaceAndDelete?: boolean;
  /** With `replaceAndDelete`, a way those writes break the contract. */
  itemWriteBreakage?: ItemWriteBreakage;
  /**
   * Hands out ids from two counters in turn (two workers, the second 500 above the first) and
   * answers each create after a pause that depends on its id, so that creates sent together are
   * answered out of the order of their ids, and ids are not increasing over time.
   */
  idsFromTwoWorkers?: boolean;
  /**
   * Reads (getPet and listPets) alternate between the primary and a replica that shows a create
   * only this long after it: a pet read at once may be missing on the next read, within the lag.
   */
  replicaLagMs?: number;
  /** With evicted-after-seconds, how long a created pet is kept (default 100 ms). */
  evictAfterMs?: number;
}

/** Ways PUT and DELETE on a pet break the contract (with `replaceAndDelete`). */
export const itemWriteBreakages = {
  'delete-keeps-pet': 'answers DELETE with 204 but keeps the pet',
  'replace-keeps-old': 'answers PUT with 200 echoing the new values, but keeps the old ones',
} as const;

export type ItemWriteBreakage = keyof typeof itemWriteBreakages;

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

export interface ReferenceServer extends RunningServer {
  /** How many pets the server holds now. */
  petCount(): number;
  /** The ids of the pets it holds, as decimal text. */
  petIds(): string[];
  /** How many requests it has answered. */
  requestCount(): number;
  /** The most requests it was ever handling at the same time. */
  maxInFlight(): number;
  /** How many requests carried this header (name in lower case) with this value. */
  requestsWithHeader(name: string, value: string): number;
  /** The method of every request it received, in order. */
  requestMethods(): string[];
}

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
  /** When it was created (`now()`), for a pet created through the API. */
  createdAt?: number;
  /** When a lagging replica starts to show the pet (readLagMs). */
  visibleAt?: number;
  /** When the pet takes its next status (statusTransition). */
  changesAt?: number;
}

const statuses = ['available', 'pending', 'sold'];
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const cacheTtlMs = 60_000;

class Reply extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly extra: { message?: string; headers?: Record<string, string>; html?: boolean } = {},
  ) {
    super(extra.message ?? `${code} (reference server)`);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** An integer literal (digits only, no fraction or exponent) within int64, or undefined. */
function int64Of(raw: string): bigint | undefined {
  if (!/^-?(0|[1-9]\d*)$/.test(raw)) return undefined;
  const value = BigInt(raw);
  return value >= int64Min && value <= int64Max ? value : undefined;
}

/**
 * An integer written as any JSON number (`7`, `7.0`, `70e-1`, `1e0`) within int64, or undefined:
 * exact for every digit, and without computing a power of ten larger than int64.
 */
function exactInt64Of(raw: string): bigint | undefined {
  const match = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const significant = `${whole}${fraction}`.replace(/^0+/, '');
  if (significant === '') return 0n;
  const digits = significant.replace(/0+$/, '');
  const scale = Number(exponent) - fraction.length + (significant.length - digits.length);
  if (scale < 0 || digits.length + scale > 19) return undefined;
  const value = BigInt(`${sign}${digits}`) * 10n ** BigInt(scale);
  return value >= int64Min && value <= int64Max ? value : undefined;
}

/** Whether an `If-None-Match` field value matches an entity tag (weak comparison, RFC 9110 §13.1.2). */
function noneMatchHits(field: string, etag: string): boolean {
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  return field.trim() === '*' || field.split(',').some((tag) => opaque(tag) === opaque(etag));
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a racing create waits on its store between reading and writing it. */
const raceMs = 10;
/** How long evicted-after-seconds keeps a pet it created, unless told. */
const evictAfterMs = 100;
const byteOrderMark = Buffer.from([0xef, 0xbb, 0xbf]);

export async function startReferenceServer(options: ReferenceOptions): Promise<ReferenceServer> {
  const broken = (kind: Breakage): boolean => options.breakage === kind;
  /** Requests received, counted as each arrives (the clock of `msPerRequest` moves by them). */
  let requests = 0;
  const startedAt = Date.now();
  const { msPerRequest } = options;
  const now = msPerRequest === undefined ? (options.clock ?? Date.now) : () => startedAt + requests * msPerRequest;
  const basePath = options.basePath ?? '/v1';
  const firstId = options.firstId ?? 1n;
  const { throttle } = options;
  if (throttle && (throttle.everyNth === undefined) === (throttle.perSecond === undefined)) {
    throw new Error('throttle takes one of everyNth and perSecond');
  }
  if (throttle?.everyNth !== undefined && throttle.everyNth < 2) {
    throw new Error('throttle.everyNth must be at least 2, or no retry could ever be answered');
  }
  // Some breakages only show with pets to show them: seed those unless told otherwise.
  const cycle =
    options.statusCycle ??
    (broken('unfiltered-hides-sold')
      ? ['sold', 'sold', 'available', 'pending']
      : broken('empty-filter-returns-all')
        ? ['available', 'pending']
        : statuses);
  const seeded = options.pets ?? (broken('default-limit-ignored-when-filtered') ? 90 : 30);
  let pets: Pet[] = Array.from({ length: seeded }, (_, i) => ({
    id: firstId + BigInt(i),
    name: `Pet ${i + 1}`,
    categoryId: BigInt((i % 4) + 1),
    status: cycle[i % cycle.length],
  }));
  let nextId = firstId + BigInt(pets.length);
  // tenantKeys: a store per key, each seeded alike; the handler works on the store of the key it was sent.
  const stores = new Map<string, { pets: Pet[]; nextId: bigint }>([[options.token, { pets, nextId }]]);
  for (const key of options.tenantKeys ?? []) {
    stores.set(key, { pets: pets.map((pet) => ({ ...pet })), nextId });
  }
  const validators = {
    etags:
      options.etags ??
      (broken('stale-list-etag') || broken('not-modified-always') || broken('not-modified-with-body') || undefined),
    lastModified: options.lastModified ?? (broken('last-modified-frozen') || undefined),
  };
  /** When its data last changed (ms), for Last-Modified; last-modified-frozen sends the day it was seeded instead. */
  let lastChange = now();
  const frozenLastModified = Date.UTC(2024, 0, 1);
  const cache = new Map<string, { expires: number; body: unknown; headers: Record<string, string> }>();

  const petView = (pet: Pet): Record<string, unknown> => {
    const view: Record<string, unknown> = {
      id: pet.id,
      name: pet.name,
      categoryId: pet.categoryId,
      status: pet.status,
    };
    if (pet.status === undefined && broken('status-null-echo')) view.status = null;
    if (broken('decimal-integers-written')) view.categoryId = new NumberToken(`${pet.categoryId}.0`);
    if (options.extraFields) {
      view.createdAt = '2026-11-22T10:00:00Z';
      view._links = { self: { href: `${basePath}/pets/${pet.id}` } };
    }
    return view;
  };

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    const json = options.charset ? 'application/json; charset=utf-8' : 'application/json';
    const type = status === 200 && broken('text-plain-success') ? 'text/plain' : json;
    let payload: Buffer = Buffer.from(writePlainJson(body), 'utf8');
    if (broken('bom-body')) payload = Buffer.concat([byteOrderMark, payload]);
    const extra: Record<string, string> = {};
    if (options.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      payload = gzipSync(payload);
      extra['content-encoding'] = 'gzip';
      extra.vary = 'Accept-Encoding';
    }
    if (request.method === 'GET' && status === 200 && (validators.etags || validators.lastModified)) {
      if (validators.etags) {
        // A hash of the very bytes sent, so the gzip form has a tag of its own; stale-list-etag hashes the query only.
        const list = /\/pets$/.test(new URL(request.url ?? '/', 'http://reference.invalid').pathname);
        const basis = broken('stale-list-etag') && list ? Buffer.from(request.url ?? '') : payload;
        const tag = `"${createHash('sha256').update(basis).digest('base64url').slice(0, 27)}"`;
        extra.etag = validators.etags === 'weak' ? `W/${tag}` : tag;
      }
      if (validators.lastModified) {
        const changed = broken('last-modified-frozen') ? frozenLastModified : lastChange;
        extra['last-modified'] = new Date(Math.floor(changed / 1000) * 1000).toUTCString();
      }
      const noneMatch = request.headers['if-none-match'];
      const since = request.headers['if-modified-since'];
      const unchanged =
        broken('not-modified-always') ||
        (noneMatch !== undefined
          ? extra.etag !== undefined && noneMatchHits(noneMatch, extra.etag)
          : since !== undefined &&
            extra['last-modified'] !== undefined &&
            Date.parse(extra['last-modified']) <= Date.parse(since));
      if ((noneMatch !== undefined || since !== undefined) && unchanged) {
        if (broken('not-modified-with-body')) {
          // Node drops a 304's body: the answer is written on the socket itself, its body after the headers.
          const head = [
            'HTTP/1.1 304 Not Modified',
            `Date: ${new Date().toUTCString()}`,
            ...Object.entries({ ...extra, ...headers }).map(([name, value]) => `${name}: ${value}`),
            `Content-Type: ${type}`,
            `Content-Length: ${payload.length}`,
            'Connection: close',
          ].join('\r\n');
          response.socket?.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), payload]));
          return;
        }
        response.writeHead(304, { ...extra, ...headers });
        response.end();
        return;
      }
    }
    // content-length-chars counts the JSON text's characters (UTF-16 code units), not the bytes sent.
    const length =
      broken('content-length-chars') && !extra['content-encoding'] ? writePlainJson(body).length : payload.length;
    response.writeHead(status, {
      'content-type': type,
      'content-length': String(length),
      ...extra,
      ...headers,
    });
    response.end(payload);
  };

  const sendError = (response: ServerResponse, error: Reply, request: IncomingMessage): void => {
    if (error.status === 401 && broken('malformed-401-body')) {
      return send(request, response, 401, { error: 'unauthorized', received: request.headers.authorization ?? null });
    }
    if (error.status === 401 && broken('text-401-echoing-key')) {
      response.writeHead(401, { 'content-type': 'text/plain' });
      response.end(`no access for ${request.headers.authorization ?? 'nobody'}`);
      return;
    }
    if (error.status === 404 && broken('html-404')) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body><h1>Not Found</h1></body></html>');
      return;
    }
    if (error.extra.html) {
      response.writeHead(error.status, { 'content-type': 'text/html', ...error.extra.headers });
      response.end(`<html><body><h1>${error.status} ${error.code}</h1></body></html>`);
      return;
    }
    const status = broken('error-status-mismatch') ? 400n : BigInt(error.status);
    const headers: Record<string, string> = { ...error.extra.headers };
    if (error.status === 401 && options.wwwAuthenticate !== false) headers['www-authenticate'] = 'Bearer';
    const body: Record<string, unknown> = { code: error.code, message: error.message, status };
    if (options.extraFields) Object.assign(body, { requestId: 'ref-1', details: [] });
    send(request, response, error.status, body, headers);
  };

  const keyAccepted = (key: string): boolean => {
    const { token } = options;
    if (key === token || options.tenantKeys?.includes(key)) return true;
    if (broken('key-case-insensitive')) return key.toLowerCase() === token.toLowerCase();
    if (broken('key-prefix-accepted')) return key.startsWith(token);
    if (broken('key-truncation-accepted')) return key !== '' && token.startsWith(key);
    if (broken('key-first-8-chars')) return key.length === token.length && key.slice(0, 8) === token.slice(0, 8);
    return false;
  };

  const authenticate = (request: IncomingMessage, route: string): void => {
    const header = request.headers.authorization;
    if (header === undefined) {
      if (broken('missing-key-accepted')) return;
      if (broken('create-without-auth-ok') && route === 'createPet') return;
      throw new Reply(401, 'unauthorized');
    }
    // The scheme is case-insensitive (RFC 9110 §11.1); the key is not.
    const bearer = broken('bearer-scheme-case-sensitive') ? /^Bearer (\S+)$/ : /^Bearer (\S+)$/i;
    if (broken('unknown-key-accepted') && bearer.test(header)) return;
    if (broken('wrong-scheme-accepted') && header.endsWith(` ${options.token}`)) return;
    const match = bearer.exec(header);
    if (!match?.[1] || !keyAccepted(match[1])) throw new Reply(401, 'unauthorized');
  };

  const readInteger = (value: unknown): bigint | undefined => {
    if (!(value instanceof NumberToken)) return undefined;
    if (broken('decimal-integers-accepted') && Number.isInteger(Number(value.raw))) return BigInt(Number(value.raw));
    if (broken('int64-range-unchecked') && /^-?\d+$/.test(value.raw)) return BigInt(value.raw);
    return options.lenientIntegers ? exactInt64Of(value.raw) : int64Of(value.raw);
  };

  const refuseCategory = (categoryId: bigint): void => {
    const bits = options.categoryIdBits;
    if (bits !== undefined && BigInt.asIntN(bits, categoryId) !== categoryId) {
      const message = `invalid values: categoryId ${categoryId} does not fit in ${bits} bits`;
      throw new Reply(400, 'invalid_body', { message });
    }
    const known = options.knownCategories;
    if (known && (categoryId < known.first || categoryId > known.last)) {
      throw new Reply(400, 'unknown_category', { message: `invalid values: there is no category ${categoryId}` });
    }
  };

  const storedName = (name: string): string => {
    if (broken('non-ascii-500') && [...name].some((char) => char > '\u007f')) throw new Reply(500, 'internal_error');
    if (broken('empty-name-refused') && name === '') throw new Reply(400, 'invalid_body');
    if (broken('name-truncated-255')) return name.slice(0, 255);
    if (broken('name-trimmed')) return name.trim();
    if (broken('name-nfc-normalised')) return name.normalize('NFC');
    if (broken('name-unescaped-twice')) {
      return name.replace(/\\(["\\/]|u[0-9a-fA-F]{4})/g, (_, escape: string) =>
        escape.startsWith('u') ? String.fromCharCode(parseInt(escape.slice(1), 16)) : escape,
      );
    }
    return name;
  };

  const storedStatus = (status: unknown): string | undefined => {
    if (status === undefined) return undefined;
    if (typeof status !== 'string') throw new Reply(400, 'invalid_body');
    let value = status;
    if (broken('enum-case-insensitive')) value = value.toLowerCase();
    if (broken('enum-trimmed')) value = value.trim();
    if (!statuses.includes(value)) throw new Reply(400, 'invalid_body');
    return value;
  };

  const parsePet = (text: string): Pet => {
    if (text === '') throw new Reply(400, 'body_required');
    let body: unknown;
    try {
      body = parsePlainJson(text);
    } catch {
      throw new Reply(broken('malformed-json-500') ? 500 : 400, 'invalid_json');
    }
    const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    if (broken('create-accepts-invalid')) {
      const category = input.categoryId instanceof NumberToken ? input.categoryId.raw : '0';
      return { id: 0n, name: String(input.name ?? ''), categoryId: BigInt(Math.trunc(Number(category)) || 0) };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Reply(400, 'invalid_body');
    let rawCategory = input.categoryId;
    if (broken('lenient-types') && typeof rawCategory === 'string' && /^\d+$/.test(rawCategory)) {
      rawCategory = new NumberToken(rawCategory);
    }
    if (typeof input.name !== 'string') throw new Reply(400, 'invalid_body');
    const maxName = options.maxNameLength;
    if (maxName !== undefined && [...input.name].length > maxName) {
      throw new Reply(400, 'invalid_body', { message: `invalid values: name is longer than ${maxName} characters` });
    }
    let categoryId = readInteger(rawCategory);
    if (categoryId === undefined) throw new Reply(400, 'invalid_body');
    refuseCategory(categoryId);
    if (broken('category-id-as-double')) categoryId = BigInt(Number(categoryId));
    if (broken('category-id-int32')) categoryId = BigInt.asIntN(32, categoryId);
    const pet: Pet = { id: 0n, name: storedName(input.name), categoryId };
    const status = storedStatus(input.status) ?? options.defaultStatus;
    if (status !== undefined) pet.status = status;
    return pet;
  };

  /** Refuses an input the spec leaves open, as the options or the breakage say. */
  const refuseOpenInput = (refusal: OpenInputRefusal, what: string): never => {
    if (broken('html-500-for-open-inputs')) throw new Reply(500, 'internal_error', { html: true });
    if (refusal === 'unprocessable') throw new Reply(422, 'invalid_parameter', { message: `unprocessable ${what}` });
    if (refusal === 'server-error') throw new Reply(500, 'internal_error', { message: `could not handle ${what}` });
    throw new Reply(400, 'invalid_parameter');
  };

  /** Pets a reader sees now: a lagging replica does not show the newest yet. */
  const visiblePets = (): Pet[] => {
    const at = now();
    forgetExpired(at);
    // Every other read is the replica's, which shows a create only once its lag has passed.
    const replica = options.replicaLagMs !== undefined && reads++ % 2 === 1;
    return pets.filter(
      (pet) =>
        (pet.visibleAt === undefined || pet.visibleAt <= at) &&
        (!replica || pet.createdAt === undefined || pet.createdAt + (options.replicaLagMs ?? 0) <= at),
    );
  };

  /** With evicted-after-seconds, the pets it created more than 0.1 s ago are gone. */
  const forgetExpired = (at: number): void => {
    if (!broken('evicted-after-seconds')) return;
    for (let index = pets.length - 1; index >= 0; index--) {
      const pet = pets[index];
      if (pet?.createdAt !== undefined && at - pet.createdAt > (options.evictAfterMs ?? evictAfterMs))
        pets.splice(index, 1);
    }
  };

  /** Gives pets whose transition is due their next status. */
  const settleTransitions = (): void => {
    const transition = options.statusTransition;
    if (!transition) return;
    for (const pet of pets) {
      if (pet.changesAt === undefined || pet.changesAt > now()) continue;
      pet.status = transition.to;
      delete pet.changesAt;
      lastChange = now();
    }
  };

  /** The limit asked for, clamped to 1..100 (text that is no integer at all gives the default). */
  const clampedLimit = (raw: string, fallback: number): number => {
    if (!/^-?\d+$/.test(raw)) return fallback;
    const value = BigInt(raw);
    return value < 1n ? 1 : value > 100n ? 100 : Number(value);
  };

  const listPets = (url: URL): Pet[] => {
    const rawLimit = url.searchParams.get('limit');
    const rawStatus = url.searchParams.get('status');
    const defaultLimit = broken('default-page-50') ? 50 : 20;
    let limit = defaultLimit;
    if (rawLimit !== null) {
      const limitAnswer = options.outOfRangeLimit ?? 'bad-request';
      if (/^\d+$/.test(rawLimit) && Number(rawLimit) >= 1 && Number(rawLimit) <= 100) limit = Number(rawLimit);
      else if (limitAnswer === 'clamp') limit = clampedLimit(rawLimit, defaultLimit);
      else refuseOpenInput(limitAnswer, `limit ${rawLimit}`);
    }
    if (rawStatus !== null && !statuses.includes(rawStatus)) {
      const statusAnswer = options.unknownStatusFilter ?? 'bad-request';
      if (statusAnswer === 'empty') return [];
      refuseOpenInput(statusAnswer, `status filter ${rawStatus}`);
    }
    if (rawStatus !== null && broken('filtered-limit-ignored')) limit = defaultLimit;
    if (rawStatus !== null && rawLimit === null && broken('default-limit-ignored-when-filtered')) limit = 100;
    const visible = visiblePets().filter(
      (pet) => !(broken('non-ascii-never-listed') && [...pet.name].some((char) => char > '\u007f')),
    );
    let found = visible.filter((pet) => {
      if (rawStatus === null) return !(broken('unfiltered-hides-sold') && pet.status === 'sold');
      return broken('status-filter-ignored') || pet.status === rawStatus;
    });
    if (found.length === 0 && rawStatus !== null && broken('empty-filter-returns-all')) found = visible;
    const order = options.newestFirst ? -1 : 1;
    found = [...found].sort((a, b) => (a.id < b.id ? -order : a.id > b.id ? order : 0));
    if (!broken('limit-ignored')) found = found.slice(0, Math.min(limit, options.pageCap ?? limit));
    if (broken('duplicate-ids') && found.length > 1 && found[0]) found = [found[0], ...found.slice(0, -1)];
    return found;
  };

  const listView = (found: Pet[]): unknown[] =>
    found.map((pet) =>
      broken('invalid-pet-in-list') ? { ...petView(pet), categoryId: String(pet.categoryId) } : petView(pet),
    );

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://reference.invalid');
    const text = await readBody(request);
    const path = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : undefined;
    const petMatch = path === undefined ? null : /^\/pets\/([^/]+)$/.exec(path);
    const route =
      path === '/pets' && request.method === 'GET'
        ? 'listPets'
        : path === '/pets' && request.method === 'POST'
          ? 'createPet'
          : petMatch && request.method === 'GET'
            ? 'getPet'
            : petMatch && options.replaceAndDelete && request.method === 'PUT'
              ? 'replacePet'
              : petMatch && options.replaceAndDelete && request.method === 'DELETE'
                ? 'deletePet'
                : undefined;
    const retryAt = throttled();
    if (retryAt !== undefined) throw throttleReply(retryAt);
    if (!route) throw new Reply(404, 'route_not_found');
    settleTransitions();

    const cacheKey = `${url.pathname}${url.search}`;
    if (broken('auth-cache-leak') && request.method === 'GET') {
      const hit = cache.get(cacheKey);
      if (hit && hit.expires > Date.now()) return send(request, response, 200, hit.body, hit.headers);
    }
    if (broken('auth-after-validation')) {
      if (route === 'listPets') listPets(url);
      if (route === 'createPet') parsePet(text);
      if (route === 'getPet' && int64Of(petMatch?.[1] ?? '') === undefined) throw new Reply(400, 'invalid_parameter');
    }
    authenticate(request, route);
    const store = stores.get(/^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
    if (options.tenantKeys && store) {
      pets = store.pets;
      nextId = store.nextId;
    }
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      if (broken('auth-cache-leak') && request.method === 'GET' && status === 200) {
        cache.set(cacheKey, { expires: Date.now() + cacheTtlMs, body, headers });
      }
      send(request, response, status, body, headers);
    };

    if (route === 'listPets') return answer(200, listView(listPets(url)));
    if (route === 'createPet') {
      const pet = parsePet(text);
      creates += 1;
      const newest = pets.at(-1);
      // What a deployment that takes equal bodies for one pet keys them by (only that one computes it).
      const hash = broken('create-dedup-by-body')
        ? createHash('sha256')
            .update(writePlainJson(petView({ ...pet, id: 0n })))
            .digest('hex')
        : '';
      const same = broken('create-dedup-by-body') ? byBodyHash.get(hash) : undefined;
      if (same && pets.includes(same)) return answer(201, petView(same));
      if (broken('created-id-reused') && creates % 3 === 0 && newest) {
        pet.id = newest.id;
        pets.splice(pets.indexOf(newest), 1);
      } else if (broken('concurrent-same-id')) {
        // Read, wait on the store, then count: two creates in that gap get the same id.
        const id = nextId;
        await raceGap();
        pet.id = id;
        nextId = id + 1n;
        const taken = pets.findIndex((each) => each.id === id);
        if (taken !== -1) pets.splice(taken, 1);
      } else if (options.idsFromTwoWorkers) {
        const worker = creates % 2;
        pet.id = workerIds[worker] ?? nextId;
        workerIds[worker] = pet.id + 1n;
        await pause(Number(pet.id % 7n) * 3);
      } else {
        pet.id = nextId;
        nextId += 1n;
      }
      if (options.tenantKeys && store) store.nextId = nextId;
      pet.createdAt = now();
      lastChange = now();
      if (broken('create-echo-wrong')) pet.status = 'available';
      const echoed = petView(pet);
      const transition = options.statusTransition;
      if (transition && pet.status === transition.from) pet.changesAt = now() + transition.afterMs;
      let stored: Pet = broken('read-back-differs') ? { ...pet, name: [...pet.name].slice(0, 64).join('') } : pet;
      if (broken('status-echoed-not-stored') && pet.status !== undefined) {
        stored = { ...pet, status: statuses[(statuses.indexOf(pet.status) + 1) % statuses.length] };
      }
      if (options.readLagMs !== undefined) stored.visibleAt = now() + options.readLagMs;
      if (broken('create-dedup-by-body')) byBodyHash.set(hash, stored);
      if (broken('concurrent-create-lost')) {
        // Copy the store, wait on it, write the copy back: a create in that gap is lost.
        const copy = [...pets, stored];
        await raceGap();
        pets.splice(0, pets.length, ...copy);
      } else if (!broken('lost-writes')) pets.push(stored);
      if (broken('evicted-after-30-creates')) {
        ownCreates.push(stored);
        if (ownCreates.length > 30) {
          const oldest = ownCreates.shift();
          if (oldest && pets.includes(oldest)) pets.splice(pets.indexOf(oldest), 1);
        }
      }
      cache.clear();
      return answer(broken('create-returns-200') ? 200 : 201, echoed);
    }
    if (route === 'replacePet' || route === 'deletePet') {
      const body = route === 'replacePet' ? parsePet(text) : undefined;
      const id = int64Of(petMatch?.[1] ?? '');
      if (id === undefined) throw new Reply(400, 'invalid_parameter');
      const pet = pets.find((each) => each.id === id);
      if (!pet) throw new Reply(404, 'pet_not_found');
      cache.clear();
      lastChange = now();
      if (route === 'deletePet') {
        if (options.itemWriteBreakage !== 'delete-keeps-pet') pets.splice(pets.indexOf(pet), 1);
        response.writeHead(204);
        response.end();
        return;
      }
      const replaced: Pet = { ...(body as Pet), id };
      if (options.itemWriteBreakage !== 'replace-keeps-old') pets.splice(pets.indexOf(pet), 1, replaced);
      return answer(200, petView(replaced));
    }
    const rawId = petMatch?.[1] ?? '';
    let id = options.lenientIntegers ? exactInt64Of(rawId) : int64Of(rawId);
    if (id === undefined && broken('decimal-integers-accepted') && Number.isInteger(Number(rawId))) {
      id = BigInt(Number(rawId));
    }
    if (id === undefined) throw new Reply(400, 'invalid_parameter');
    if (broken('pet-id-int32-500') && (id > 2n ** 31n - 1n || id < -(2n ** 31n)))
      throw new Reply(500, 'internal_error');
    if (broken('pet-id-unsafe-400') && (id > 2n ** 53n - 1n || id < -(2n ** 53n - 1n))) {
      throw new Reply(400, 'invalid_parameter');
    }
    const headers: Record<string, string> =
      options.deprecationHeaders === false ? {} : { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
    const visible = visiblePets();
    let lookup = visible.find((pet) => pet.id === id);
    if (lookup && broken('get-wrong-pet')) lookup = visible.find((pet) => pet.id !== id);
    if (lookup) return answer(200, petView(lookup), headers);
    if (broken('unknown-id-200')) {
      return answer(200, petView({ id, name: 'Ghost', categoryId: 1n, status: 'available' }), headers);
    }
    if (broken('unknown-id-410')) throw new Reply(410, 'gone');
    throw new Reply(404, 'pet_not_found');
  };

  /** The racing creates waiting between reading and writing the store (with raceUntil). */
  const racing: Array<() => void> = [];
  const raceGap = (): Promise<void> => {
    const until = options.raceUntil;
    if (until === undefined) return pause(options.raceMs ?? raceMs);
    return new Promise((resolve) => {
      racing.push(resolve);
      if (racing.length >= until) for (const go of racing.splice(0)) go();
    });
  };

  let creates = 0;
  let reads = 0;
  /** The next id of each of the two workers (idsFromTwoWorkers). */
  const workerIds = [nextId, nextId + 500n];
  const byBodyHash = new Map<string, Pet>();
  /** The pets it created, oldest first (evicted-after-30-creates). */
  const ownCreates: Pet[] = [];
  // Throttling: requests counted towards everyNth, the end of the current wait, the current second's count.
  let throttleCount = 0;
  let waitUntil = 0;
  let second = -1;
  let inSecond = 0;

  /** When a refused request may be retried, or undefined to answer it. */
  const throttled = (): number | undefined => {
    const at = now();
    if (broken('rate-limit-without-retry')) return ++throttleCount % 10 === 0 ? at : undefined;
    if (!throttle) return undefined;
    if (at < waitUntil) return waitUntil;
    if (throttle.everyNth !== undefined) {
      throttleCount += 1;
      if (throttleCount % throttle.everyNth !== 0) return undefined;
      const wait = at + (throttle.seconds ?? 1) * 1000;
      // An HTTP-date counts whole seconds: round up so that the date is never before the wait ends.
      waitUntil = throttle.retryAfter === 'http-date' ? Math.ceil(wait / 1000) * 1000 : wait;
      return waitUntil;
    }
    if (Math.floor(at / 1000) !== second) {
      second = Math.floor(at / 1000);
      inSecond = 0;
    }
    inSecond += 1;
    return inSecond > (throttle.perSecond ?? Infinity) ? (second + 1) * 1000 : undefined;
  };

  const throttleReply = (retryAt: number): Reply => {
    if (broken('rate-limit-without-retry')) return new Reply(429, 'too_many_requests', { html: true });
    const status = throttle?.status ?? 429;
    const code = status === 429 ? 'rate_limited' : 'unavailable';
    const seconds = Math.max(1, Math.ceil((retryAt - now()) / 1000));
    const retryAfter = throttle?.retryAfter === 'http-date' ? new Date(retryAt).toUTCString() : String(seconds);
    const message = `${status === 429 ? 'too many requests' : 'overloaded'}: retry after ${retryAfter}`;
    return new Reply(status, code, { message, headers: { 'retry-after': retryAfter } });
  };

  let inFlight = 0;
  let maxInFlight = 0;
  const headerCounts = new Map<string, number>();
  const methods: string[] = [];
  const server = createServer((request, response) => {
    requests += 1;
    methods.push(request.method ?? '');
    for (const [name, value] of Object.entries(request.headers)) {
      const key = `${name}: ${String(value)}`;
      headerCounts.set(key, (headerCounts.get(key) ?? 0) + 1);
    }
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => (inFlight -= 1));
    const { delay } = options;
    const wait = !delay
      ? 0
      : requests === 1
        ? delay.firstMs
        : requests % delay.everyNth === 0
          ? delay.nthMs
          : delay.otherMs;
    const work = wait > 0 ? pause(wait).then(() => handle(request, response)) : handle(request, response);
    work.catch((error: unknown) => {
      sendError(response, error instanceof Reply ? error : new Reply(500, 'internal_error'), request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    petCount: () => pets.length,
    petIds: () => pets.map((pet) => pet.id.toString()),
    requestCount: () => requests,
    maxInFlight: () => maxInFlight,
    requestsWithHeader: (name, value) => headerCounts.get(`${name}: ${value}`) ?? 0,
    requestMethods: () => [...methods],
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
