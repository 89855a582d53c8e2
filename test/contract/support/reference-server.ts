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
} as const;

export type Breakage = keyof typeof breakages;

export interface ReferenceOptions {
  token: string;
  breakage?: Breakage;
  /** How many pets to seed (default 30). */
  pets?: number;
  /** The id of the first seeded pet; the next ones follow (default 1). */
  firstId?: bigint;
  /** Statuses given to the seeded pets in turn (default: the three values in order). */
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
}

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
}

interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

const statuses = ['available', 'pending', 'sold'];
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const cacheTtlMs = 60_000;

class Reply extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
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

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startReferenceServer(options: ReferenceOptions): Promise<ReferenceServer> {
  const broken = (kind: Breakage): boolean => options.breakage === kind;
  const basePath = options.basePath ?? '/v1';
  const firstId = options.firstId ?? 1n;
  const cycle =
    options.statusCycle ?? (broken('unfiltered-hides-sold') ? ['sold', 'sold', 'available', 'pending'] : statuses);
  const pets: Pet[] = Array.from({ length: options.pets ?? 30 }, (_, i) => ({
    id: firstId + BigInt(i),
    name: `Pet ${i + 1}`,
    categoryId: BigInt((i % 4) + 1),
    status: cycle[i % cycle.length],
  }));
  let nextId = firstId + BigInt(pets.length);
  const cache = new Map<string, { expires: number; body: unknown; headers: Record<string, string> }>();

  const petView = (pet: Pet): Record<string, unknown> => {
    const view: Record<string, unknown> = { ...pet };
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
    const extra: Record<string, string> = {};
    if (options.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      payload = gzipSync(payload);
      extra['content-encoding'] = 'gzip';
      extra.vary = 'Accept-Encoding';
    }
    response.writeHead(status, {
      'content-type': type,
      'content-length': String(payload.length),
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
    const status = broken('error-status-mismatch') ? 400n : BigInt(error.status);
    const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    const body: Record<string, unknown> = { code: error.code, message: `${error.code} (reference server)`, status };
    if (options.extraFields) Object.assign(body, { requestId: 'ref-1', details: [] });
    send(request, response, error.status, body, headers);
  };

  const keyAccepted = (key: string): boolean => {
    const { token } = options;
    if (key === token) return true;
    if (broken('key-case-insensitive')) return key.toLowerCase() === token.toLowerCase();
    if (broken('key-prefix-accepted')) return key.startsWith(token);
    if (broken('key-truncation-accepted')) return key !== '' && token.startsWith(key);
    if (broken('key-first-8-chars')) return key.length === token.length && key.slice(0, 8) === token.slice(0, 8);
    return false;
  };

  const authenticate = (request: IncomingMessage): void => {
    const header = request.headers.authorization;
    if (header === undefined) {
      if (broken('missing-key-accepted')) return;
      throw new Reply(401, 'unauthorized');
    }
    if (broken('unknown-key-accepted') && /^Bearer \S+$/.test(header)) return;
    if (broken('wrong-scheme-accepted') && header.endsWith(` ${options.token}`)) return;
    const match = /^Bearer (\S+)$/.exec(header);
    if (!match?.[1] || !keyAccepted(match[1])) throw new Reply(401, 'unauthorized');
  };

  const readInteger = (value: unknown): bigint | undefined => {
    if (!(value instanceof NumberToken)) return undefined;
    if (broken('decimal-integers-accepted') && Number.isInteger(Number(value.raw))) return BigInt(Number(value.raw));
    if (broken('int64-range-unchecked') && /^-?\d+$/.test(value.raw)) return BigInt(value.raw);
    return int64Of(value.raw);
  };

  const storedName = (name: string): string => {
    if (broken('non-ascii-500') && [...name].some((char) => char > '\u007f')) throw new Reply(500, 'internal_error');
    if (broken('empty-name-refused') && name === '') throw new Reply(400, 'invalid_body');
    if (broken('name-truncated-255')) return name.slice(0, 255);
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
    let categoryId = readInteger(rawCategory);
    if (categoryId === undefined) throw new Reply(400, 'invalid_body');
    if (broken('category-id-as-double')) categoryId = BigInt(Number(categoryId));
    if (broken('category-id-int32')) categoryId = BigInt.asIntN(32, categoryId);
    const pet: Pet = { id: 0n, name: storedName(input.name), categoryId };
    const status = storedStatus(input.status);
    if (status !== undefined) pet.status = status;
    return pet;
  };

  const listPets = (url: URL): Pet[] => {
    const rawLimit = url.searchParams.get('limit');
    const rawStatus = url.searchParams.get('status');
    let limit = broken('default-page-50') ? 50 : 20;
    if (rawLimit !== null) {
      if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100)
        throw new Reply(400, 'invalid_parameter');
      limit = Number(rawLimit);
    }
    if (rawStatus !== null && !statuses.includes(rawStatus)) throw new Reply(400, 'invalid_parameter');
    let found = pets.filter((pet) => {
      if (rawStatus === null) return !(broken('unfiltered-hides-sold') && pet.status === 'sold');
      return broken('status-filter-ignored') || pet.status === rawStatus;
    });
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
            : undefined;
    if (!route) throw new Reply(404, 'route_not_found');

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
    authenticate(request);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      if (broken('auth-cache-leak') && request.method === 'GET' && status === 200) {
        cache.set(cacheKey, { expires: Date.now() + cacheTtlMs, body, headers });
      }
      send(request, response, status, body, headers);
    };

    if (route === 'listPets') return answer(200, listView(listPets(url)));
    if (route === 'createPet') {
      const pet = parsePet(text);
      pet.id = nextId;
      nextId += 1n;
      if (broken('create-echo-wrong')) pet.status = 'available';
      if (!broken('lost-writes')) pets.push(pet);
      cache.clear();
      return answer(broken('create-returns-200') ? 200 : 201, petView(pet));
    }
    const rawId = petMatch?.[1] ?? '';
    let id = int64Of(rawId);
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
    let lookup = pets.find((pet) => pet.id === id);
    if (lookup && broken('get-wrong-pet')) lookup = pets.find((pet) => pet.id !== id);
    if (lookup) return answer(200, petView(lookup), headers);
    if (broken('unknown-id-200')) {
      return answer(200, petView({ id, name: 'Ghost', categoryId: 1n, status: 'available' }), headers);
    }
    if (broken('unknown-id-410')) throw new Reply(410, 'gone');
    throw new Reply(404, 'pet_not_found');
  };

  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const headerCounts = new Map<string, number>();
  const server = createServer((request, response) => {
    requests += 1;
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
