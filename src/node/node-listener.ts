import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlainRequest, PlainResponse } from '../core/http/plain-http.js';
import { readNodeBody } from './read-node-body.js';

/** What the adapter needs of a mock: its `handle`. */
export interface Handles {
  handle(request: PlainRequest): Promise<PlainResponse>;
}

/**
 * A Node request as the core's plain request, straight from `IncomingMessage`
 * (no Fetch objects on this path: on Node 20 they cost several times the
 * whole pipeline). `url` is the request's URL, or the part below a mount
 * point when Express strips one.
 */
export function toPlainRequest(req: IncomingMessage, url = req.url ?? '/', res?: ServerResponse): PlainRequest {
  const query = url.indexOf('?');
  const length = req.headers['content-length'];
  const body =
    (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined
      ? readNodeBody(req)
      : undefined;
  return new NodeRequest(
    req.method ?? 'GET',
    query === -1 ? url : url.slice(0, query),
    query === -1 ? '' : url.slice(query + 1),
    req.headers,
    body,
    res,
  );
}

/**
 * The plain request of a Node request, with `onClientLeave` on the
 * response's `close` (the proxy's forwarder listens; the mock never does).
 */
class NodeRequest implements PlainRequest {
  readonly #response: ServerResponse | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly headers: PlainRequest['headers'],
    readonly body: PlainRequest['body'],
    response: ServerResponse | undefined,
  ) {
    this.#response = response;
  }

  onClientLeave(listener: () => void): () => void {
    const res = this.#response;
    if (!res) return noop;
    if (!res.writableFinished && (res.destroyed || res.socket?.destroyed !== false)) {
      listener();
      return noop;
    }
    const closed = (): void => {
      if (!res.writableFinished) listener();
    };
    res.once('close', closed);
    return () => res.off('close', closed);
  }
}

function noop(): void {}

/**
 * Breaks the connection the way an injected fault asks: reset before any
 * byte, closed without a status line, a chunked body cut short, or no answer
 * at all (the server's own timeouts end that one).
 */
function breakConnection(req: IncomingMessage, res: ServerResponse, response: PlainResponse): void {
  const socket = req.socket;
  switch (response.fault) {
    case 'connection_reset':
      socket.resetAndDestroy();
      return;
    case 'empty_response':
      socket.destroy();
      return;
    case 'malformed_response':
      // A status line and headers, then a chunk that announces more bytes than follow, and the connection closes.
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      socket.write('40\r\n{"truncated":', () => socket.destroy());
      return;
    case 'timeout':
      return;
  }
}

/** Writes the core's plain response to a Node response: one `writeHead`, one `end`. */
export function writeNodeResponse(req: IncomingMessage, res: ServerResponse, response: PlainResponse): void {
  if (response.fault) {
    breakConnection(req, res, response);
    return;
  }
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** The node:http adapter: a request listener for `http.createServer` (the CLI's server). */
export function createNodeListener(mock: Handles) {
  return function petstoreMock(req: IncomingMessage, res: ServerResponse): void {
    mock
      .handle(toPlainRequest(req, req.url, res))
      .then((response) => writeNodeResponse(req, res, response))
      // The core never throws; a bug in writing must still end the connection, not leave it hanging.
      .catch((error: unknown) => res.destroy(error as Error));
  };
}
