import {
  createServer as createHttpServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../core/errors/error-codes.js';
import type { HttpError } from '../core/errors/http-error.js';
import { errorBody, errorBodyFor } from '../core/errors/to-error-response.js';
import { checkRequestHead } from './check-request-head.js';

/** What one connection may cost the server. Every field has a default; tests pass short ones. */
export interface ServerLimits {
  /** Largest request line plus headers, in bytes; beyond it: `431 headers_too_large`. Default 16 KiB. */
  maxHeaderSize?: number;
  /** Time to receive the request line and headers (slowloris); then `408 request_timeout`. Default 10 s. */
  headersTimeout?: number;
  /** Time to receive the whole request, body included; then `408 request_timeout`. Default 30 s. */
  requestTimeout?: number;
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  keepAliveTimeout?: number;
  /** Requests served on one connection before it is closed (`Connection: close`). Default 1000. */
  maxRequestsPerSocket?: number;
  /** Open connections at once; beyond it new ones are closed at once. Default 1000. */
  maxConnections?: number;
  /** A connection with no traffic either way for this long is destroyed. Default 120 s (above the 60 s maximum latency). */
  idleTimeout?: number;
  /**
   * Requests in flight at once from one client: one key and session (`Petstore-Session`), or, without one of
   * `clientKeys`, one remote address. Beyond: `429 too_many_requests`, the connection closed. Default a quarter
   * of `maxConnections` (250), so that one client (a timeout fault and 1,000 held requests, say) cannot hold
   * every connection: health and other clients are still answered.
   */
  maxRequestsPerClient?: number;
  /** Requests in flight at once with one key, across its sessions. Default half of `maxConnections` (500). */
  maxRequestsPerKey?: number;
  /** The keys that name a client (the mock's own); a request without one of them counts by its remote address. */
  clientKeys?: readonly string[];
}

export const defaultServerLimits: Required<Omit<ServerLimits, 'maxRequestsPerClient' | 'maxRequestsPerKey'>> = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxRequestsPerSocket: 1_000,
  maxConnections: 1_000,
  idleTimeout: 120_000,
  clientKeys: [],
};

type Settings = typeof defaultServerLimits & { maxRequestsPerClient: number; maxRequestsPerKey: number };

/** The Error body for a request Node's HTTP parser refused before the mock saw it. */
function clientErrorFor(error: NodeJS.ErrnoException, limits: Settings): [ErrorCode, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        'headers_too_large',
        `the request line and headers are larger than the limit of ${limits.maxHeaderSize} bytes`,
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        'request_timeout',
        `the request was not received in time (headers within ${limits.headersTimeout} ms, the whole request within ${limits.requestTimeout} ms)`,
      ];
    default:
      return ['malformed_request', `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`];
  }
}

/** A complete HTTP/1.1 response with a JSON Error body; the connection is closed after it. */
export function clientErrorResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}): string {
  const error = errorBodyFor(code, message);
  const { status } = error;
  const body = JSON.stringify(error);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * How long a connection the server has finished with may take to close its
 * side before it is destroyed. Long enough for a client to read a last answer
 * (destroying at once, with its bytes unread, would reset the connection and
 * could lose the answer), short enough that a client that never closes cannot
 * hold a connection slot.
 */
const lingerMs = 1_000;

/**
 * Ends the server's side of a connection (after `last`, when given) and
 * destroys the connection once the client closes its side, or after a short
 * linger. The server allows half-open connections, so without this a client
 * that never closes would keep its socket, counted against `maxConnections`,
 * until the idle timeout.
 */
export function closeConnection(socket: Duplex, last?: string, linger = lingerMs): void {
  const timer = setTimeout(() => socket.destroy(), linger);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  if (socket.writable) socket.end(last);
  // Whatever the client still sends is read and dropped, so that its unread bytes do not reset the connection.
  socket.resume();
}

/**
 * Answers a request whose head RFC 9112 refuses (see check-request-head.ts)
 * with its Error body, and closes the connection after it: the body it may
 * still send is framed in a way the server does not trust, so nothing more is
 * read from that connection as a request.
 */
function refuseHead(request: IncomingMessage, response: ServerResponse, error: HttpError): void {
  const body = JSON.stringify(errorBody(error));
  response.shouldKeepAlive = false;
  response.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
  response.once('finish', () => closeConnection(request.socket));
}

/** Compares two keys in time that does not depend on how much of them matched (as authenticate.ts does). */
function sameKey(presented: string, key: string): boolean {
  let difference = presented.length ^ key.length;
  for (let index = 0; index < key.length; index++) {
    difference |= (index < presented.length ? presented.charCodeAt(index) : 0) ^ key.charCodeAt(index);
  }
  return difference === 0;
}

/**
 * Requests that hold nothing, so that they need no share: the admin API's
 * (health, the pages, reading the journal, clearing the faults that hold a
 * client's requests) when they carry no body, as nothing delays them: no
 * latency, no fault, no body to wait for.
 */
function answeredAtOnce(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  if (!url.startsWith('/__admin/') && url !== '/__admin') return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/** Who a request is, for its share of the server: the name it is counted under, and its key's. */
interface Client {
  client: string;
  key?: string;
}

/** The client a connection's last request was, by the two headers that made it (most connections send the same). */
interface LastClient extends Client {
  authorization: string | undefined;
  session: string | string[] | undefined;
}

/** What the server keeps of one connection: the requests it served, and the client its last request was. */
interface ConnectionState {
  served: number;
  last: LastClient | undefined;
}

const connectionState = Symbol('what the server keeps of this connection');
const countedShare = Symbol('the names a request is counted under, until it ends');

type SharedSocket = IncomingMessage['socket'] & { [connectionState]?: ConnectionState };

/** The connection's state, made with its first request. */
function stateOf(socket: SharedSocket): ConnectionState {
  return (socket[connectionState] ??= { served: 0, last: undefined });
}
/** What a request is counted under until it ends: its client's name, and its key's (when it has one). */
interface CountedShare {
  inFlight: Map<string, number>;
  client: string;
  key: string | undefined;
}
type CountedResponse = ServerResponse & { [countedShare]?: CountedShare };

function release(inFlight: Map<string, number>, name: string): void {
  const left = (inFlight.get(name) ?? 1) - 1;
  if (left === 0) inFlight.delete(name);
  else inFlight.set(name, left);
}

/**
 * Who a request is, for its share of the server: its key (by its place in
 * `keys`, never the key itself) and session, or, without one of the keys,
 * its remote address. A key the server does not know names nobody (anyone
 * could send a new one each time): such a request counts by its address.
 * A connection whose request sends the same two headers as its last one is
 * the same client (the comparison tells nothing of any key).
 */
function clientOf(request: IncomingMessage, connection: ConnectionState, keys: readonly string[]): Client {
  const { authorization, 'petstore-session': session } = request.headers;
  const last = connection.last;
  if (last && last.authorization === authorization && last.session === session) return last;
  const token = authorization === undefined ? undefined : /^bearer[ \t]+(\S+)\s*$/i.exec(authorization)?.[1];
  let client: Client = { client: `address ${request.socket.remoteAddress ?? '?'}` };
  if (token !== undefined) {
    let found = -1;
    for (let index = 0; index < keys.length; index++)
      if (sameKey(token, keys[index] as string) && found < 0) found = index;
    if (found >= 0) {
      const name = typeof session === 'string' ? session.slice(0, 64) : 'default';
      client = { client: `key ${found} session ${name}`, key: `key ${found}` };
    }
  }
  connection.last = { ...client, authorization, session };
  return client;
}

/** A request has ended (answered, or its connection closed): its share is free again. */
function releaseShare(this: CountedResponse): void {
  const counted = this[countedShare];
  if (!counted) return;
  this[countedShare] = undefined;
  release(counted.inFlight, counted.client);
  if (counted.key !== undefined) release(counted.inFlight, counted.key);
}

/** The client to count a request under while it is in flight (`undefined` for a request that holds nothing). */
function shareOf(request: IncomingMessage, connection: ConnectionState, settings: Settings): Client | undefined {
  return answeredAtOnce(request) ? undefined : clientOf(request, connection, settings.clientKeys);
}

/**
 * The share a client has used up (the refusal's message), or the client to
 * count the request under when it may go on (`undefined` for a request that
 * holds nothing, whatever its answer).
 */
function overShare(
  request: IncomingMessage,
  connection: ConnectionState,
  inFlight: Map<string, number>,
  settings: Settings,
): string | Client | undefined {
  const counted = shareOf(request, connection, settings);
  return counted && shareUsedUp(counted, inFlight, settings);
}

/** The refusal's message when `counted` has used up its share (or its key's), else `counted`. */
function shareUsedUp(counted: Client, inFlight: Map<string, number>, settings: Settings): string | Client {
  const { client, key } = counted;
  const used = inFlight.get(client) ?? 0;
  if (used >= settings.maxRequestsPerClient) {
    return key
      ? `this key and session already have ${used} requests in flight, their share of the server (${settings.maxRequestsPerClient}); retry once some are answered, or use another session`
      : `this client already has ${used} requests in flight, its share of the server (${settings.maxRequestsPerClient}); retry once some are answered`;
  }
  const usedByKey = key ? (inFlight.get(key) ?? 0) : 0;
  if (key && usedByKey >= settings.maxRequestsPerKey) {
    return `this key already has ${usedByKey} requests in flight across its sessions, its share of the server (${settings.maxRequestsPerKey}); retry once some are answered`;
  }
  return counted;
}

/** Counts a request under its client (and key) until its response closes. */
function countShare(response: CountedResponse, inFlight: Map<string, number>, { client, key }: Client): void {
  inFlight.set(client, (inFlight.get(client) ?? 0) + 1);
  if (key) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  response[countedShare] = { inFlight, client, key };
  response.on('close', releaseShare);
}

/**
 * The node:http server the mock listens with, with limits a hostile or broken
 * client cannot get past: header size, slow headers and bodies (slowloris),
 * idle keep-alive connections, requests per connection, open connections,
 * and each client's share of them (a key and session, or an address).
 * Requests Node refuses before the mock sees them (oversize headers, timeouts,
 * malformed HTTP) are answered with the spec's Error body, as JSON, instead of
 * Node's empty default; nothing is written to a connection whose response has
 * already started.
 */
export function createServer(app: RequestListener, limits: ServerLimits = {}): Server {
  const connections = limits.maxConnections ?? defaultServerLimits.maxConnections;
  const settings: Settings = {
    ...defaultServerLimits,
    maxRequestsPerClient: Math.max(1, Math.floor(connections / 4)),
    maxRequestsPerKey: Math.max(1, Math.floor(connections / 2)),
    ...(Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as ServerLimits),
  };
  const inFlight = new Map<string, number>();
  // A share below 1 refuses every request, in flight or not.
  const noShare = settings.maxRequestsPerClient < 1 || settings.maxRequestsPerKey < 1;
  const server = createHttpServer(
    {
      maxHeaderSize: settings.maxHeaderSize,
      headersTimeout: settings.headersTimeout,
      requestTimeout: settings.requestTimeout,
      // Node checks the two timeouts above on this interval (30 s by default), so a short one is needed to keep them.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(settings.headersTimeout / 4))),
      // Node's own refusal of an HTTP/1.1 request without Host is a bare 400; ours, below, carries the Error body.
      requireHostHeader: false,
    },
    (request, response) => {
      const socket = request.socket;
      const connection = stateOf(socket);
      // Node only announces `Connection: close` at the limit and waits for the client to hang up; a hostile client
      // would not, so the server closes its side once the last allowed response is sent.
      connection.served++;
      if (settings.maxRequestsPerSocket > 0 && connection.served >= settings.maxRequestsPerSocket) {
        response.once('finish', () => closeConnection(socket));
      }
      const refused = checkRequestHead(request);
      if (refused) {
        refuseHead(request, response, refused);
        return;
      }
      // With no request in flight (the memory store answers at once, so under load most of the time), no client
      // has used any of its share: who the request is matters only if it is still in flight once the app returns.
      const judged = inFlight.size > 0 || noShare;
      const over = judged ? overShare(request, connection, inFlight, settings) : undefined;
      if (typeof over === 'string') {
        // Closed after the answer, so that the connection slot is free at once; what the client still sends is dropped.
        const body = JSON.stringify(errorBodyFor('too_many_requests', over));
        response.shouldKeepAlive = false;
        response.writeHead(429, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'retry-after': '1',
        });
        response.end(body);
        response.once('finish', () => closeConnection(request.socket));
        return;
      }
      app(request, response);
      // A request answered in this same turn (most of them: the memory store answers at once) holds nothing, so it
      // is counted under no share; one still in flight is, until its response closes. Nothing else runs between the
      // check above and the count, so the share holds exactly as if every request were counted first.
      if (response.writableEnded) return;
      const counted = judged ? over : shareOf(request, connection, settings);
      if (counted) countShare(response, inFlight, counted);
    },
  );
  server.keepAliveTimeout = settings.keepAliveTimeout;
  server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  server.maxConnections = settings.maxConnections;
  server.timeout = settings.idleTimeout;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [code, message] = clientErrorFor(error, settings);
    const answer = (): void => closeConnection(socket, clientErrorResponse(code, message));
    // Bad bytes after a request that was received whole and is still being answered (pipelining): that
    // request gets its own answer first, rather than the client taking this Error for it.
    if (inFlight && inFlight.req.complete && !inFlight.writableFinished) inFlight.once('finish', answer);
    else answer();
  });
  // Node answers an unknown `Expect` with a bare 417: this one carries the Error body.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = String(request.headers.expect ?? '');
    const body = JSON.stringify(
      errorBodyFor(
        'expectation_failed',
        `the Expect header ${JSON.stringify(expectation.slice(0, 80))} is not supported; only 100-continue is`,
      ),
    );
    // The body the client may send anyway is not read: the connection closes after the answer.
    response.shouldKeepAlive = false;
    response.writeHead(417, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.end(body);
  });
  // CONNECT asks for a tunnel, which the mock does not make: Node would close the socket without a word.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    closeConnection(
      socket,
      clientErrorResponse(
        'method_not_allowed',
        `method CONNECT is not allowed: this server makes no tunnels (CONNECT ${JSON.stringify((request.url ?? '').slice(0, 80))})`,
        // The authority the client named is no resource here: it allows no method (RFC 9110 §10.2.1).
        { Allow: '' },
      ),
    );
  });
  return server;
}
