import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An independent, deliberately plain implementation of the Pet Store animals API
 * (node:http only, hand-written validation: it shares no code with the mock or the
 * checks), with one switch per way a deployment can break the contract.
 */
export const breakages = {
  'missing-key-accepted': 'answers requests without an Authorization header',
  'unknown-key-accepted': 'accepts any bearer key',
  'wrong-scheme-accepted': 'accepts the key under any scheme (e.g. Basic)',
  'auth-after-validation': 'validates the request before authenticating it',
  'malformed-401-body': 'answers 401 with { error, received } instead of an Error, echoing the credential it got',
  'error-status-mismatch': 'sends Error bodies whose status differs from the HTTP status',
  'html-404': 'answers 404 with an HTML page',
  'text-plain-success': 'sends 200 responses as text/plain',
  'limit-ignored': 'ignores limit',
  'default-page-50': 'uses 50 as the default page size',
  'status-filter-ignored': 'ignores the status filter',
  'invalid-pet-in-list': 'lists pets whose categoryId is a string',
  'duplicate-ids': 'lists the same pet twice',
  'create-returns-200': 'answers createPet with 200 instead of 201',
  'create-echo-wrong': "answers createPet with status 'available' whatever was sent",
  'lost-writes': 'answers 201 but does not store the pet',
  'create-accepts-invalid': 'creates pets from bodies that break the schema',
  'lenient-types': "coerces wrong-typed fields (categoryId '7' is taken as 7)",
  'malformed-json-500': 'answers malformed JSON with 500',
  'unknown-id-200': 'answers 200 with a made-up pet for unknown ids',
  'unknown-id-410': 'answers 410 (undocumented) for unknown ids',
  'get-wrong-pet': 'answers getPet with another pet',
  'no-deprecation-headers': 'sends no Deprecation or Sunset header (a warning, not a failure)',
} as const;

export type Breakage = keyof typeof breakages;

export interface ReferenceOptions {
  token: string;
  breakage?: Breakage;
  /** How many pets to seed (default 30). */
  pets?: number;
  /** Send `application/json; charset=utf-8` (as Express does) instead of `application/json`. */
  charset?: boolean;
}

export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

export interface ReferenceServer extends RunningServer {
  /** How many pets the server holds now. */
  petCount(): number;
  /** How many requests it has answered. */
  requestCount(): number;
  /** The most requests it was ever handling at the same time. */
  maxInFlight(): number;
}

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const statuses = ['available', 'pending', 'sold'];

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

export async function startReferenceServer(options: ReferenceOptions): Promise<ReferenceServer> {
  const broken = (kind: Breakage): boolean => options.breakage === kind;
  const pets: Pet[] = Array.from({ length: options.pets ?? 30 }, (_, i) => ({
    id: i + 1,
    name: `Pet ${i + 1}`,
    categoryId: (i % 4) + 1,
    status: statuses[i % 3],
  }));
  let nextId = pets.length + 1;

  const send = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    const json = options.charset ? 'application/json; charset=utf-8' : 'application/json';
    const type = status === 200 && broken('text-plain-success') ? 'text/plain' : json;
    response.writeHead(status, { 'content-type': type, ...headers });
    response.end(JSON.stringify(body));
  };

  const sendError = (response: ServerResponse, error: Reply, request: IncomingMessage): void => {
    if (error.status === 401 && broken('malformed-401-body')) {
      return send(response, 401, { error: 'unauthorized', received: request.headers.authorization ?? null });
    }
    if (error.status === 404 && broken('html-404')) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body><h1>Not Found</h1></body></html>');
      return;
    }
    const status = broken('error-status-mismatch') ? 400 : error.status;
    const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
    send(response, error.status, { code: error.code, message: `${error.code} (reference server)`, status }, headers);
  };

  const authenticate = (request: IncomingMessage): void => {
    const header = request.headers.authorization;
    if (header === undefined) {
      if (broken('missing-key-accepted')) return;
      throw new Reply(401, 'unauthorized');
    }
    if (broken('unknown-key-accepted') && /^Bearer \S+$/.test(header)) return;
    if (broken('wrong-scheme-accepted') && header.endsWith(` ${options.token}`)) return;
    if (header !== `Bearer ${options.token}`) throw new Reply(401, 'unauthorized');
  };

  const parsePet = (text: string): Pet => {
    if (text === '') throw new Reply(400, 'body_required');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Reply(broken('malformed-json-500') ? 500 : 400, 'invalid_json');
    }
    const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    if (broken('create-accepts-invalid')) {
      return { id: 0, name: String(input.name ?? ''), categoryId: Number(input.categoryId ?? 0) };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Reply(400, 'invalid_body');
    let { categoryId } = input;
    if (broken('lenient-types') && typeof categoryId === 'string' && /^\d+$/.test(categoryId))
      categoryId = Number(categoryId);
    if (typeof input.name !== 'string') throw new Reply(400, 'invalid_body');
    if (typeof categoryId !== 'number' || !Number.isSafeInteger(categoryId)) throw new Reply(400, 'invalid_body');
    if (input.status !== undefined && !statuses.includes(input.status as string)) throw new Reply(400, 'invalid_body');
    const pet: Pet = { id: 0, name: input.name, categoryId };
    if (input.status !== undefined) pet.status = input.status as string;
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
    let found = pets.filter((pet) => rawStatus === null || broken('status-filter-ignored') || pet.status === rawStatus);
    found = [...found].sort((a, b) => a.id - b.id);
    if (!broken('limit-ignored')) found = found.slice(0, limit);
    if (broken('duplicate-ids') && found.length > 1 && found[0]) found = [found[0], ...found.slice(0, -1)];
    if (broken('invalid-pet-in-list'))
      return found.map((pet) => ({ ...pet, categoryId: String(pet.categoryId) as never }));
    return found;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://reference.invalid');
    const text = await readBody(request);
    const petMatch = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    const route =
      url.pathname === '/v1/pets' && request.method === 'GET'
        ? 'listPets'
        : url.pathname === '/v1/pets' && request.method === 'POST'
          ? 'createPet'
          : petMatch && request.method === 'GET'
            ? 'getPet'
            : undefined;
    if (!route) throw new Reply(404, 'route_not_found');

    if (broken('auth-after-validation')) {
      if (route === 'listPets') listPets(url);
      if (route === 'createPet') parsePet(text);
      if (route === 'getPet' && !/^\d+$/.test(petMatch?.[1] ?? '')) throw new Reply(400, 'invalid_parameter');
    }
    authenticate(request);

    if (route === 'listPets') return send(response, 200, listPets(url));
    if (route === 'createPet') {
      const pet = parsePet(text);
      pet.id = nextId++;
      if (broken('create-echo-wrong')) pet.status = 'available';
      if (!broken('lost-writes')) pets.push(pet);
      return send(response, broken('create-returns-200') ? 200 : 201, pet);
    }
    const rawId = petMatch?.[1] ?? '';
    if (!/^\d+$/.test(rawId) || !Number.isSafeInteger(Number(rawId))) throw new Reply(400, 'invalid_parameter');
    const id = Number(rawId);
    const headers: Record<string, string> = broken('no-deprecation-headers')
      ? {}
      : { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
    let lookup = pets.find((pet) => pet.id === id);
    if (lookup && broken('get-wrong-pet')) lookup = pets.find((pet) => pet.id !== id);
    if (lookup) return send(response, 200, lookup, headers);
    if (broken('unknown-id-200'))
      return send(response, 200, { id, name: 'Ghost', categoryId: 1, status: 'available' }, headers);
    if (broken('unknown-id-410')) throw new Reply(410, 'gone');
    throw new Reply(404, 'pet_not_found');
  };

  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((request, response) => {
    requests += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => (inFlight -= 1));
    handle(request, response).catch((error: unknown) => {
      sendError(response, error instanceof Reply ? error : new Reply(500, 'internal_error'), request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    petCount: () => pets.length,
    requestCount: () => requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
