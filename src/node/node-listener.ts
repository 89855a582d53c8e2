import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { PlainRequest, PlainResponse } from '../core/http/plain-http.js';
import type { Awaitable } from '../core/types/awaitable.js';
import { readNodeBody } from './read-node-body.js';

/** A body too large to hold, passed on as it arrives: the proxy's answers beyond its budget (see node-forwarder.ts). */
interface StreamedBody {
  source: Readable;
  /** The upstream's `Content-Length`, when it sent one. */
  length: string | undefined;
}

/** Streamed bodies by the empty placeholder that stands for them in a plain response. */
const streamedBodies = new WeakMap<Uint8Array, StreamedBody>();

/**
 * A placeholder body (no bytes) that the node:http adapter replaces with
 * `source`, piped to the client as it arrives. The core passes a plain
 * response's body on untouched, so the placeholder reaches `writeNodeResponse`;
 * only the Node adapter streams (the proxy runs on it).
 */
export function streamedBody(source: Readable, length: string | undefined): Uint8Array {
  const placeholder = new Uint8Array(0);
  streamedBodies.set(placeholder, { source, length });
  return placeholder;
}

/** What hears of the close of an answer's Node response: the proxy's exchange with its upstream. */
export interface AnswerWatcher {
  /**
   * The response closed, once: written whole (`left` false), or first
   * abandoned by the client, whose connection closed (`left` true).
   */
  answerClosed(left: boolean): void;
}

const watcherOf = Symbol('what hears of the close of this response');
type WatchedResponse = ServerResponse & { [watcherOf]?: AnswerWatcher };

/** A Node response closed: its watcher hears whether the client left before it was written whole. */
function responseClosed(this: WatchedResponse): void {
  const watcher = this[watcherOf];
  this[watcherOf] = undefined;
  watcher?.answerClosed(!this.writableFinished);
}

/**
 * Tells `watcher` once when the answer to `request` closes, written or
 * abandoned (at once, as abandoned, when the client has already gone).
 * False for a request that is not a Node one: there is no connection to watch.
 * One listener and no closure a request: the proxy calls this for every one.
 */
export function watchAnswer(request: PlainRequest, watcher: AnswerWatcher): boolean {
  if (!(request instanceof NodeRequest)) return false;
  return request.watch(watcher);
}

/** What the adapter needs of a mock: its `handle`, or better its `handleNow` (an answer at once where it has one). */
export interface Handles {
  handle(request: PlainRequest): Promise<PlainResponse>;
  handleNow?(request: PlainRequest): Awaitable<PlainResponse>;
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
 * The plain request of a Node request, whose response's `close` the
 * proxy's forwarder can watch (`watchAnswer`; the mock never does).
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

  watch(watcher: AnswerWatcher): boolean {
    const res = this.#response as WatchedResponse | undefined;
    if (!res) return false;
    if (!res.writableFinished && (res.destroyed || res.socket?.destroyed !== false)) {
      watcher.answerClosed(true);
      return true;
    }
    res[watcherOf] = watcher;
    res.on('close', responseClosed);
    return true;
  }
}

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
  // A placeholder is empty: a body with bytes is sent as it is, without a look in the weak map.
  const streamed = response.body?.length === 0 ? streamedBodies.get(response.body) : undefined;
  if (streamed) {
    writeStreamed(req, res, response, streamed);
    return;
  }
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** Writes a response whose body is a stream: the upstream's own length (or chunked), then the bytes as they come. */
function writeStreamed(req: IncomingMessage, res: ServerResponse, response: PlainResponse, body: StreamedBody): void {
  const headers = { ...response.headers };
  delete headers['content-length'];
  if (body.length !== undefined) headers['content-length'] = body.length;
  res.writeHead(response.status, headers);
  if (req.method === 'HEAD') {
    body.source.destroy();
    res.end();
    return;
  }
  // A source cut short (the deadline, an upstream reset) can only end the connection: the status is sent.
  body.source.once('error', () => res.destroy());
  body.source.once('close', () => {
    if (!res.writableEnded) res.destroy();
  });
  body.source.pipe(res);
}

/** The node:http adapter: a request listener for `http.createServer` (the CLI's server). */
export function createNodeListener(mock: Handles) {
  const handle = mock.handleNow ? mock.handleNow.bind(mock) : mock.handle.bind(mock);
  return function petstoreMock(req: IncomingMessage, res: ServerResponse): void {
    // The core never throws; a bug in writing must still end the connection, not leave it hanging. An answer the
    // core had at once is written in this turn; one still to come, with one `then` for both paths.
    let answering: Awaitable<PlainResponse>;
    try {
      answering = handle(toPlainRequest(req, req.url, res));
    } catch (error) {
      res.destroy(error as Error);
      return;
    }
    if (!(answering instanceof Promise)) {
      send(req, res, answering);
      return;
    }
    answering.then(
      (response) => send(req, res, response),
      (error: unknown) => res.destroy(error as Error),
    );
  };
}

/** Writes the answer; a bug in writing ends the connection rather than leaving it hanging. */
function send(req: IncomingMessage, res: ServerResponse, response: PlainResponse): void {
  try {
    writeNodeResponse(req, res, response);
  } catch (error) {
    res.destroy(error as Error);
  }
}
