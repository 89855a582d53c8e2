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
import { errorBody, errorBodyFor } from '../core/errors/to-error-response.js';
import { missingHost } from '../core/pipeline/check-host.js';

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
}

export const defaultServerLimits: Required<ServerLimits> = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxRequestsPerSocket: 1_000,
  maxConnections: 1_000,
  idleTimeout: 120_000,
};

/** The Error body for a request Node's HTTP parser refused before the mock saw it. */
function clientErrorFor(error: NodeJS.ErrnoException, limits: Required<ServerLimits>): [ErrorCode, string] {
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
 * The node:http server the mock listens with, with limits a hostile or broken
 * client cannot get past: header size, slow headers and bodies (slowloris),
 * idle keep-alive connections, requests per connection, open connections.
 * Requests Node refuses before the mock sees them (oversize headers, timeouts,
 * malformed HTTP) are answered with the spec's Error body, as JSON, instead of
 * Node's empty default; nothing is written to a connection whose response has
 * already started.
 */
export function createServer(app: RequestListener, limits: ServerLimits = {}): Server {
  const settings = { ...defaultServerLimits, ...limits };
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
      if (request.headers.host === undefined && request.httpVersion === '1.1') {
        const body = JSON.stringify(errorBody(missingHost()));
        response.writeHead(400, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
        response.end(body);
        return;
      }
      app(request, response);
    },
  );
  server.keepAliveTimeout = settings.keepAliveTimeout;
  server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
  server.maxConnections = settings.maxConnections;
  server.timeout = settings.idleTimeout;
  // Node only announces `Connection: close` at the limit and waits for the client to hang up; a hostile client would
  // not, so the server closes its side once the last allowed response is sent.
  const served = new WeakMap<object, number>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    if (settings.maxRequestsPerSocket > 0 && count >= settings.maxRequestsPerSocket) {
      response.once('finish', () => closeConnection(socket));
    }
  });
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
