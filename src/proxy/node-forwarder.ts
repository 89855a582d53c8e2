import {
  Agent as HttpAgent,
  maxHeaderSize,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { HttpError } from '../core/errors/http-error.js';
import type { PlainRequest } from '../core/http/plain-http.js';
import { redactUrl } from '../core/http/redact-credentials.js';
import { type ForwardedResponse, type Forwarder, UpstreamFramingError } from '../core/pipeline/forward-upstream.js';
import { type AnswerWatcher, streamedBody, watchAnswer } from '../node/node-listener.js';
import { type Deadline, DeadlineQueue, type Expiring } from './deadline-queue.js';
import { type Decoded, decodeForJudging, mebibytes } from './decode-for-judging.js';
import { forwardedHeaders, responseHeaders } from './forwarded-headers.js';

export interface ForwarderOptions {
  /** The upstream's base address, ending with its version segment: `https://staging.example/v1`. */
  upstream: URL;
  /** The base path the proxy serves the API under (`/v1`): what comes after it is appended to the upstream's. */
  basePath: string;
  /**
   * The deadline of one whole exchange with the upstream, in ms: connecting,
   * the status and headers, and the last byte of the body. Beyond it the
   * upstream request is cancelled and the client gets `504 upstream_timeout`,
   * however the upstream spends the time (silent, trickling, stalled).
   */
  timeoutMs: number;
  /** Largest upstream body the proxy reads, in bytes (the response is passed on whole, so it is held). */
  maxResponseBytes: number;
  /**
   * Largest answer the proxy judges, in bytes, once its Content-Encoding is
   * undone (the inflater stops there). A larger one passes to the client
   * unchanged and unjudged, with a finding. Default 8 MiB.
   */
  maxJudgedBytes?: number;
  /**
   * Upstream requests in flight and waiting for a connection at most; beyond
   * it the client gets `503 upstream_busy` at once. Default 256 (64 connections
   * to the upstream, the rest waiting, each for at most `timeoutMs`).
   */
  maxPending?: number;
  /**
   * Bytes of answers the proxy holds at once to judge them, all answers
   * together (as sent, and inflated), from their first byte until they are
   * written to the client. An answer that does not fit is passed on as it
   * arrives, unjudged, with the finding `too-large-to-judge`. Default 256 MiB.
   */
  maxBufferedBytes?: number;
}

export const defaultMaxJudgedBytes = 8 * 1024 * 1024;
export const defaultMaxPending = 256;
export const defaultMaxBufferedBytes = 256 * 1024 * 1024;
/** Connections kept to the upstream at most; more requests wait for one (counted in `maxPending`). */
const maxSockets = 64;

/** How many times over a path is decoded to find what a double- (or triple-) decoding upstream would read. */
const maxDecodings = 3;

/** Any character that may hide a dot-segment, a slash or an empty segment: most paths hold none. */
const worthAClosePath = /[%.;\\]|\/\//;

/** Strict UTF-8: an overlong form (`%C0%AE` for a dot) or a lone surrogate is an error, not a character. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text `%XX` escapes decode to, as UTF-8 (a `%` that starts no `%XX`
 * stays as it is); `undefined` when the bytes are not UTF-8.
 */
function percentDecoded(text: string): string | undefined {
  if (!/%[0-9a-f]{2}/i.test(text)) return text;
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x25 && /^[0-9a-f]{2}$/i.test(text.slice(index + 1, index + 3))) {
      bytes.push(Number.parseInt(text.slice(index + 1, index + 3), 16));
      index += 2;
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      // Beyond ASCII (a layer already decoded): its own UTF-8 bytes.
      bytes.push(...new TextEncoder().encode(text[index] as string));
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

/** How a message says a reading of a path came about: `''` as sent, ` once decoded`, ` once decoded twice`… */
function afterDecoding(decodings: number): string {
  return decodings === 0
    ? ''
    : decodings === 1
      ? ' once decoded'
      : decodings === 2
        ? ' once decoded twice'
        : ` once decoded ${decodings} times`;
}

function count(text: string, character: string): number {
  let found = 0;
  for (let index = text.indexOf(character); index !== -1; index = text.indexOf(character, index + 1)) found++;
  return found;
}

/**
 * Why one reading of a path (as sent, or decoded once, twice…) holds a
 * segment an upstream resolves as a dot-segment or an empty one, or
 * `undefined`. A segment is read as Tomcat and Spring read it (its path
 * parameters, from the first `;`, cut off: `..;x=1` is `..`), after
 * Unicode compatibility folding (a fullwidth `．` is a `.`, `‥` is `..`), and
 * as Windows servers read it (trailing dots and spaces dropped: `...` and
 * `.. ` are `..`). Messages quote the segment as sent: `sent` holds as many
 * segments as every reading (a reading that adds a slash is refused first).
 */
function segmentProblem(path: string, sent: readonly string[], decodings: number): string | undefined {
  const folded = path.normalize('NFKC');
  if (folded !== path && (count(folded, '/') > count(path, '/') || folded.includes('\\'))) {
    return `it holds a character Unicode folds into a slash or backslash (${JSON.stringify(sent.join('/'))})`;
  }
  const segments = folded.split('/');
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as string;
    const parameters = segment.indexOf(';');
    const named = parameters === -1 ? segment : segment.slice(0, parameters);
    const dots = named === '.' || named === '..';
    const windows = !dots && named.includes('.') && /^[.\s]+$/.test(named);
    const empty = named === '' && parameters !== -1;
    if (!dots && !windows && !empty) continue;
    const asSent = JSON.stringify(sent[index] ?? segment);
    const readers = [
      ...(decodings > 1 ? [`an upstream that decodes ${decodings === 2 ? 'twice' : `${decodings} times`}`] : []),
      ...(folded === path ? [] : ['an upstream that folds Unicode (NFKC)']),
      ...(parameters === -1 ? [] : ["Tomcat and Spring (they cut a segment's path parameters off)"]),
      ...(windows ? ['Windows servers (they drop the dots and spaces that end a segment)'] : []),
    ];
    if (dots && readers.length === 0) return `it holds the dot-segment ${asSent}`;
    const reading = empty ? 'an empty segment' : `the dot-segment ${JSON.stringify(dots ? named : '..')}`;
    return `it holds ${asSent}, ${reading} to ${readers.join(' and ')}`;
  }
  return undefined;
}

/**
 * Why a path must not be forwarded, or `undefined`: when the upstream, or a
 * server or proxy in front of it, could read it as another path than the
 * client named, outside the API's base (`/v1/../admin` is `/admin`). Refused:
 *
 * - a dot-segment, in any spelling a common upstream resolves as one:
 *   percent-encoded in any case (`%2e%2e`), encoded twice or three times
 *   (`%252e%252e`, for upstreams that decode again), with path parameters
 *   (`..;`, `..;x=1`, `.;`, `%2e%2e;`, `..%3b`: Tomcat and Spring cut them
 *   off), folded by Unicode (`%EF%BC%8E` is a fullwidth `．`), or of dots and
 *   spaces only (`...`, `..%20`: Windows drops them at a segment's end);
 * - an encoded slash or backslash, at any of those decodings (`%2f`, `%5c`,
 *   `%252f`), a backslash, and a character Unicode folds into one;
 * - an empty segment (`//evil.test/x`), also one of path parameters only (`/;x/`);
 * - a `%` that starts no `%XX` escape, such as IIS's `%u002e`; escapes that
 *   are not UTF-8, such as the overlong `%C0%AE` some decoders read as a
 *   dot; and a NUL (`%00`), where some upstreams cut a path.
 */
export function unforwardablePath(below: string): string | undefined {
  if (!worthAClosePath.test(below)) return undefined;
  if (below.includes('\\')) return 'it holds a backslash';
  if (below.includes('//')) return 'it holds an empty segment (//)';
  const slashes = count(below, '/');
  const sent = below.split('/');
  let path = below;
  for (let decodings = 0; ; decodings++) {
    const unicodeEscape = /%u[0-9a-f]{4}/i.exec(path);
    if (unicodeEscape) {
      return `it holds the escape ${JSON.stringify(unicodeEscape[0])}${afterDecoding(decodings)}, which IIS decodes as a character (%u002e is a dot)`;
    }
    // As sent, a % must start an escape (RFC 3986 §2.1); once decoded, a lone % is a percent sign the client encoded.
    const stray = decodings === 0 ? /%(?![0-9a-f]{2})/i.exec(path) : null;
    if (stray) {
      return `it holds a % that starts no %XX escape (at ${JSON.stringify(path.slice(stray.index, stray.index + 6))})`;
    }
    const problem = segmentProblem(path, sent, decodings);
    if (problem) return problem;
    if (decodings === maxDecodings || !/%[0-9a-f]{2}/i.test(path)) return undefined;
    const decoded = percentDecoded(path);
    if (decoded === undefined) {
      return `its escapes are not UTF-8${afterDecoding(decodings)} (an overlong %C0%AE is a dot to some decoders)`;
    }
    if (count(decoded, '/') > slashes || decoded.includes('\\')) {
      return `it holds an encoded slash or backslash (%2F, %5C${decodings === 0 ? '' : ', encoded more than once'})`;
    }
    if (decoded.includes('\0')) return 'it holds a NUL (%00), where some upstreams cut a path';
    path = decoded;
  }
}

/** What the proxy knows of an answer's framing once its status line and headers are read. */
interface Framing {
  status: number;
  /** Its Content-Length, when it gives one. */
  announced: number | undefined;
  chunked: boolean;
}

/** A status, or a request, whose answer has no body (RFC 9110 §6.4.1, §15.3.5, §15.4.5). */
function allowsNoBody(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304;
}

/**
 * What was wrong with the framing of an answer Node's HTTP parser refused
 * after its status line (`HPE_…`), in words that name no byte of the body:
 * bytes after the end its Content-Length (or its status) gives it, broken
 * chunked coding, or another violation of HTTP/1.1's message syntax.
 */
function framingProblem(method: string, framing: Framing, code: string): string {
  if (code === 'HPE_INVALID_CONSTANT' || code === 'HPE_CLOSED_CONNECTION' || code === 'HPE_INVALID_VERSION') {
    if (allowsNoBody(method, framing.status)) {
      return `it sent a body with ${method === 'HEAD' ? 'an answer to HEAD' : `a ${framing.status}`}, which has none (RFC 9110 §6.4.1)`;
    }
    if (framing.announced !== undefined) {
      return `its body holds more bytes than its Content-Length of ${framing.announced} (RFC 9112 §6.2: Content-Length counts bytes; one that counts characters is short for any text beyond ASCII)`;
    }
    return 'it sent bytes after the end of its answer (RFC 9112 §6.3)';
  }
  if (code.includes('CHUNK')) return `its chunked body is broken (${code}; RFC 9112 §7.1)`;
  return `it is not a message HTTP/1.1 can read (${code}; RFC 9112)`;
}

/**
 * What was wrong with an answer Node's HTTP parser refused before its status
 * line and headers were whole (`HPE_…`; `reason` is the parser's own words,
 * which quote no byte of the answer), and the rule that judges it: its
 * framing broken (two Content-Lengths, Content-Length beside
 * Transfer-Encoding, no status line: an HTTP/0.9 answer), or a head larger
 * than the proxy reads, which HTTP does not forbid.
 */
function headProblem(
  code: string,
  reason: string | undefined,
): { problem: string; rule: 'framing' | 'too-large-to-judge' } {
  const because = (problem: string) => ({ problem, rule: 'framing' as const });
  switch (code) {
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      if (/content-length/i.test(reason ?? '') && /transfer-encoding/i.test(reason ?? '')) {
        return because(
          'it sent both Content-Length and Transfer-Encoding, which a sender must not (RFC 9112 §6.2; a proxy answers 502, §6.3)',
        );
      }
      return code === 'HPE_UNEXPECTED_CONTENT_LENGTH'
        ? because(
            'it sent Content-Length twice, where it is one decimal length (RFC 9110 §8.6; a proxy answers 502, RFC 9112 §6.3)',
          )
        : because(`its Transfer-Encoding is not one a body can be framed by (${code}; RFC 9112 §6.1)`);
    case 'HPE_INVALID_CONTENT_LENGTH':
      return because(
        'its Content-Length is not one decimal length (RFC 9110 §8.6; a proxy answers 502, RFC 9112 §6.3)',
      );
    case 'HPE_INVALID_CONSTANT':
      return because('it answered without an HTTP/1.1 status line (an HTTP/0.9 answer, or no HTTP; RFC 9112 §4)');
    case 'HPE_INVALID_STATUS':
      return because('its status line holds no three-digit status code (RFC 9112 §4)');
    case 'HPE_HEADER_OVERFLOW':
      return {
        problem: `its status line and headers are larger than the ${maxHeaderSize} bytes the proxy reads (a bound of the kit: HTTP sets none)`,
        rule: 'too-large-to-judge',
      };
    default:
      return because(`its status line or headers are not ones HTTP/1.1 can read (${code}; RFC 9112)`);
  }
}

/** What every exchange of one forwarder shares: its options, its connections, and what is held and pending. */
interface ForwarderState {
  options: ForwarderOptions;
  maxJudged: number;
  maxBuffered: number;
  send: typeof httpRequest;
  agent: HttpAgent | HttpsAgent;
  /** Where to connect: the upstream's host (an IPv6 address without its brackets, as Node takes it) and port. */
  connectTo: { host: string; port: string };
  deadlines: DeadlineQueue;
  /** Requests in flight or waiting for a connection. */
  pending: number;
  /** Bytes of answers held now, every answer together, until each is written to its client. */
  buffered: number;
}

const exchangeOf = Symbol('the exchange with the upstream this request or answer belongs to');
type Tagged<T> = T & { [exchangeOf]?: UpstreamExchange };

// The listeners of every exchange are these functions, shared: Node calls each with `this` the emitter, which
// names its exchange. A dozen closures a request cost more than the rest of the forwarder's bookkeeping.
function upstreamAnswered(this: Tagged<ClientRequest>, incoming: IncomingMessage): void {
  this[exchangeOf]?.answered(incoming);
}
function upstreamUpgraded(this: Tagged<ClientRequest>, _incoming: IncomingMessage, socket: Duplex): void {
  socket.destroy();
  this[exchangeOf]?.finish(
    this[exchangeOf].protocolError('answered 101 Switching Protocols, though the request asked for no upgrade,'),
  );
}
function upstreamFailed(this: Tagged<ClientRequest>, error: NodeJS.ErrnoException): void {
  this[exchangeOf]?.failed(error);
}
function incomingData(this: Tagged<IncomingMessage>, chunk: Buffer): void {
  this[exchangeOf]?.data(chunk);
}
function incomingFailed(this: Tagged<IncomingMessage>): void {
  const exchange = this[exchangeOf];
  if (exchange && !exchange.streaming) exchange.brokeOff();
}
function incomingClosed(this: Tagged<IncomingMessage>): void {
  const exchange = this[exchangeOf];
  if (!exchange) return;
  if (exchange.streaming) exchange.streamClosed();
  else if (!this.complete) exchange.brokeOff();
}
function incomingEnded(this: Tagged<IncomingMessage>): void {
  const exchange = this[exchangeOf];
  if (!exchange) return;
  if (exchange.streaming) exchange.deadline.cancel();
  else exchange.ended();
}
function incomingStreamed(this: Tagged<IncomingMessage>, chunk: Buffer): void {
  this[exchangeOf]?.streamedData(chunk);
}

/**
 * One request to the upstream and its answer, from the request sent to the
 * answer written to the client (or abandoned): its deadline, its framing,
 * its share of the bytes held, and how it ends, once.
 */
class UpstreamExchange implements AnswerWatcher, Expiring {
  readonly deadline: Deadline;
  /** Once the answer is passed on as it arrives: the upstream's part ends with its last byte, not at `finish`. */
  streaming = false;
  #settled = false;
  /** Whether the client's Node response is watched: what is held is given back when it closes. */
  readonly #watched: boolean;
  #outgoing: Tagged<ClientRequest> | undefined;
  /** The upstream's answer, once its status line and headers are read. */
  #incoming: Tagged<IncomingMessage> | undefined;
  /** How the answer says its body ends, once its status line and headers are read. */
  #framing: Framing | undefined;
  /** This answer's share of `buffered`, given back once it is written (or abandoned). */
  #held = 0;
  /** The answer's chunks, when it is not read into one buffer of its announced length. */
  #chunks: Buffer[] | undefined;
  /** Bytes of the answer's body received so far (once passed on as it arrives: bytes passed on). */
  #size = 0;
  #whole: Buffer | undefined;
  /** The answer's headers as passed on, once they are read. */
  #headers: Record<string, string | string[]> | undefined;
  #namedText: string | undefined;

  constructor(
    readonly state: ForwarderState,
    readonly request: PlainRequest,
    readonly path: string,
    readonly resolve: (answer: ForwardedResponse) => void,
    readonly reject: (error: HttpError) => void,
  ) {
    state.pending++;
    this.deadline = state.deadlines.add(this);
    this.#watched = watchAnswer(request, this);
  }

  /** How messages name the request, its credentials redacted: built only when a message needs it. */
  get named(): string {
    return (this.#namedText ??= `${this.request.method} ${redactUrl(this.path)}`);
  }

  get origin(): string {
    return this.state.options.upstream.origin;
  }

  send(body: Uint8Array | undefined): void {
    // The client left before anything was sent.
    if (this.#settled) return;
    const { options, agent, connectTo } = this.state;
    // The options Node's own request reads and no more (the agent knows the protocol): each one more makes Node's
    // copies of them slower dictionaries.
    const outgoing: Tagged<ClientRequest> = this.state.send({
      host: connectTo.host,
      port: connectTo.port,
      method: this.request.method,
      path: this.path,
      headers: forwardedHeaders(this.request.headers, options.upstream.host),
      agent,
    });
    this.#outgoing = outgoing;
    outgoing[exchangeOf] = this;
    outgoing.on('response', upstreamAnswered);
    // A 101 Node recognises as an upgrade comes here, not as a response.
    outgoing.on('upgrade', upstreamUpgraded);
    outgoing.on('error', upstreamFailed);
    outgoing.end(body);
  }

  finish(error: HttpError | undefined, answer?: ForwardedResponse): void {
    if (this.#settled) return;
    this.#settled = true;
    this.state.pending--;
    if (!this.streaming) this.deadline.cancel();
    if (error) {
      // Cancelled: the socket is destroyed, never handed back to the pool half-read.
      this.#outgoing?.destroy();
      this.giveBack();
      this.reject(error);
      return;
    }
    // What is held is given back once the client has it (or has left), not when it is handed to the core.
    if (!this.#watched) this.giveBack();
    this.resolve(answer as ForwardedResponse);
  }

  /** The deadline passed. */
  expire(): void {
    if (this.streaming) {
      // The status is sent: the connection is all that can say the answer was cut.
      this.#outgoing?.destroy();
      return;
    }
    this.finish(
      new HttpError(
        'upstream_timeout',
        `the upstream ${this.origin} did not answer ${this.named} whole within ${this.state.options.timeoutMs} ms; the request was cancelled`,
      ),
    );
  }

  /** The client's response closed: written, or abandoned by the client (then the upstream request is cancelled). */
  answerClosed(left: boolean): void {
    if (left) {
      if (this.streaming) this.#outgoing?.destroy();
      this.finish(new HttpError('request_aborted', `the client left before the upstream answered ${this.named}`));
    }
    this.giveBack();
  }

  #hold(bytes: number): void {
    this.#held += bytes;
    this.state.buffered += bytes;
  }

  giveBack(): void {
    this.state.buffered -= this.#held;
    this.#held = 0;
  }

  protocolError(what: string): HttpError {
    return new HttpError('upstream_protocol_error', `the upstream ${this.origin} ${what} to ${this.named}`);
  }

  #tooLarge(): HttpError {
    return new HttpError(
      'upstream_unreachable',
      `the upstream's answer to ${this.named} is larger than the proxy holds (${this.state.options.maxResponseBytes} bytes)`,
    );
  }

  /**
   * A body cut short of what its framing announces (its Content-Length, or a chunked body's last chunk) is the
   * deployment's answer broken, not a network fault: the error that says so, or undefined for any other end.
   */
  #cutShort(): UpstreamFramingError | undefined {
    const size = this.#size;
    const framing = this.#framing;
    const cut =
      framing?.announced !== undefined && size < framing.announced
        ? `it ended after ${size} of the ${framing.announced} bytes its Content-Length announces (RFC 9112 §6.3: an incomplete message)`
        : framing?.chunked
          ? `it ended after ${size} bytes of its chunked body, before the last chunk (RFC 9112 §7.1)`
          : undefined;
    return cut === undefined
      ? undefined
      : new UpstreamFramingError(cut, `the upstream ${this.origin}'s answer to ${this.named} is broken: ${cut}`);
  }

  /** The answer's status line and headers are read. */
  answered(incoming: Tagged<IncomingMessage>): void {
    const status = incoming.statusCode ?? 0;
    // Node waits past 100, 102 and 103 for the final answer; anything else below 200 that reaches here
    // (a 101 Switching Protocols to a request that asked for no upgrade) is not an answer HTTP allows.
    if (status < 200) {
      this.finish(
        this.protocolError(`answered ${status} ${incoming.statusMessage ?? ''}`.trimEnd() + ', not a final status,'),
      );
      return;
    }
    const length = incoming.headers['content-length'];
    const announced = length === undefined ? undefined : Number(length);
    const coding = incoming.headers['transfer-encoding'];
    this.#framing = { status, announced, chunked: coding !== undefined && /\bchunked\b/i.test(coding) };
    if (announced !== undefined && announced > this.state.options.maxResponseBytes) {
      this.finish(this.#tooLarge());
      return;
    }
    this.#incoming = incoming;
    this.#headers = responseHeaders(incoming.headers);
    // An answer that announces its length and fits beside those held is read into one buffer of that length,
    // its share of the budget taken at once: no chunks kept, and no second copy of the body when it ends.
    if (announced !== undefined && announced > 0 && this.state.buffered + announced <= this.state.maxBuffered) {
      this.#whole = Buffer.allocUnsafe(announced);
      this.#hold(announced);
    }
    incoming[exchangeOf] = this;
    incoming.on('data', incomingData);
    incoming.on('error', incomingFailed);
    incoming.on('close', incomingClosed);
    incoming.on('end', incomingEnded);
  }

  data(chunk: Buffer): void {
    const whole = this.#whole;
    if (whole && this.#size + chunk.length <= whole.length) {
      chunk.copy(whole, this.#size);
      this.#size += chunk.length;
      return;
    }
    this.#size += chunk.length;
    if (this.#size > this.state.options.maxResponseBytes) {
      this.finish(this.#tooLarge());
      return;
    }
    if (this.state.buffered + chunk.length > this.state.maxBuffered) {
      this.#passOnUnjudged(chunk);
      return;
    }
    this.#hold(chunk.length);
    (this.#chunks ??= []).push(chunk);
  }

  /** Beyond the budget: the bytes so far go back into the stream, which the adapter pipes to the client. */
  #passOnUnjudged(next: Buffer): void {
    const incoming = this.#incoming as Tagged<IncomingMessage>;
    this.streaming = true;
    // Paused first, so that what is put back stays in the stream's buffer until the adapter pipes it.
    incoming.off('data', incomingData);
    incoming.pause();
    incoming.unshift(next);
    if (this.#chunks !== undefined && this.#chunks.length > 0) incoming.unshift(Buffer.concat(this.#chunks));
    this.#chunks = undefined;
    // Counted again as they flow to the client, the bytes put back included.
    this.#size = 0;
    incoming.on('data', incomingStreamed);
    const { buffered, maxBuffered } = this.state;
    this.finish(undefined, {
      status: this.#framing?.status ?? 0,
      headers: this.#headers ?? {},
      body: streamedBody(incoming, incoming.headers['content-length']),
      decoded: undefined,
      unjudged: {
        rule: 'too-large-to-judge',
        reason: `the proxy already held ${mebibytes(buffered)} of answers, and holds at most ${mebibytes(maxBuffered)} at once to judge them; this answer was passed on as it came, unjudged`,
      },
    });
  }

  streamedData(chunk: Buffer): void {
    this.#size += chunk.length;
    // Beyond what one answer may be: cut, as a held one would have been refused.
    if (this.#size > this.state.options.maxResponseBytes) this.#outgoing?.destroy();
  }

  /** A streamed answer's upstream side is over. */
  streamClosed(): void {
    this.deadline.cancel();
  }

  brokeOff(): void {
    this.finish(
      this.#cutShort() ??
        new HttpError(
          'upstream_unreachable',
          `the upstream ${this.origin} broke off its answer to ${this.named} after ${this.#size} bytes of the body`,
        ),
    );
  }

  /** The answer's last byte is read: it is judged once decoded. */
  ended(): void {
    if (this.#settled) return;
    // The upstream's part is done within the deadline; decoding to judge is the proxy's own (bounded) work.
    this.deadline.cancel();
    const size = this.#size;
    const bytes = this.#whole ? this.#whole.subarray(0, size) : Buffer.concat(this.#chunks ?? [], size);
    this.#chunks = undefined;
    const encoding = this.#incoming?.headers['content-encoding']?.trim().toLowerCase();
    const decoded = decodeForJudging(encoding, bytes, this.state.maxJudged);
    if (decoded instanceof Promise) void decoded.then((judged) => this.#judged(bytes, judged));
    else this.#judged(bytes, decoded);
  }

  #judged(bytes: Buffer, judged: Decoded): void {
    const status = this.#framing?.status ?? 0;
    const headers = this.#headers ?? {};
    const { buffered, maxBuffered } = this.state;
    if ('decoded' in judged && judged.decoded !== bytes && buffered + judged.decoded.length > maxBuffered) {
      // Inflated, it does not fit beside the answers already held: not judged.
      this.finish(undefined, {
        status,
        headers,
        body: bytes,
        decoded: undefined,
        unjudged: {
          rule: 'too-large-to-judge',
          reason: `the proxy already held ${mebibytes(buffered)} of answers, and holds at most ${mebibytes(maxBuffered)} at once to judge them; this answer was passed on unjudged`,
        },
      });
      return;
    }
    if ('decoded' in judged) {
      if (judged.decoded !== bytes) this.#hold(judged.decoded.length);
      this.finish(undefined, { status, headers, body: bytes, decoded: judged.decoded });
    } else {
      this.finish(undefined, { status, headers, body: bytes, decoded: undefined, unjudged: judged.unjudged });
    }
  }

  /** The request failed: the upstream cannot be reached, or its answer broke off or broke HTTP. */
  failed(error: NodeJS.ErrnoException & { reason?: string }): void {
    const cause = error.code ?? error.message;
    const framing = this.#framing;
    // Node's parser refused the status line or headers: the answer is broken from its start (issue 36: these were
    // labelled unreachable, as if the network had failed).
    if (!framing && cause.startsWith('HPE_')) {
      const { problem, rule } = headProblem(cause, error.reason);
      this.finish(
        new UpstreamFramingError(
          problem,
          `the upstream ${this.origin}'s answer to ${this.named} ${rule === 'framing' ? 'is broken' : 'cannot be passed on'}: ${problem}`,
          rule,
        ),
      );
      return;
    }
    // Node's parser refused what came after the status line: the answer's framing is broken (its body longer
    // than its Content-Length, bad chunks, a body where there is none), whatever bytes were counted so far.
    if (framing && cause.startsWith('HPE_')) {
      const problem = framingProblem(this.request.method, framing, cause);
      this.finish(
        new UpstreamFramingError(
          problem,
          `the upstream ${this.origin}'s answer to ${this.named} is broken: ${problem}`,
        ),
      );
      return;
    }
    const cut = framing ? this.#cutShort() : undefined;
    if (cut) {
      this.finish(cut);
      return;
    }
    this.finish(
      new HttpError(
        'upstream_unreachable',
        this.#incoming === undefined
          ? `the upstream ${this.origin} cannot be reached: ${cause}`
          : `the upstream ${this.origin} broke off its answer to ${this.named} after ${this.#size} bytes of the body (${cause})`,
      ),
    );
  }
}

/**
 * Forwards with node:http(s), which (unlike fetch) hands back the body as it
 * came: a gzip body stays gzip for the client, and is inflated only to be
 * judged. Method, path below the base, query, headers (but hop-by-hop ones)
 * and body go on unchanged; a path that could leave the API's base once an
 * upstream normalises it (`/v1/../admin`, `/v1/%2e%2e/admin`, `/v1/..;/admin`,
 * `/v1/%252e%252e/admin`, `/v1/..%2fadmin`, `/v1//evil.test/x`: see
 * `unforwardablePath`) is refused, `400 path_not_forwarded`, before anything is sent.
 *
 * Every exchange is bounded whatever the upstream does: it ends within
 * `timeoutMs` (`504 upstream_timeout`, the upstream request cancelled); an
 * upstream that breaks HTTP (a `101` to a request that asked for no upgrade,
 * a reset mid-answer) is `502`; an unreachable one `502 upstream_unreachable`;
 * the request is cancelled when the client leaves (its Node response closes
 * first); and at most `maxPending` requests are in flight or waiting, beyond
 * which the client gets `503 upstream_busy` at once. The answers held to be
 * judged hold at most `maxBufferedBytes` together: one that does not fit is
 * passed on as it arrives, unjudged (its body piped to the client by the
 * node:http adapter, still within `timeoutMs`). Messages name the request
 * with its credentials redacted.
 */
export function createNodeForwarder(options: ForwarderOptions): Forwarder {
  const { upstream } = options;
  const maxPending = options.maxPending ?? defaultMaxPending;
  const state: ForwarderState = {
    options,
    maxJudged: options.maxJudgedBytes ?? defaultMaxJudgedBytes,
    maxBuffered: options.maxBufferedBytes ?? defaultMaxBufferedBytes,
    send: upstream.protocol === 'https:' ? httpsRequest : httpRequest,
    // Connections to the upstream are kept and reused: a handshake per request would cost more than the rest. With a
    // `timeout`, Node's agent closes an idle one a second before the upstream's `Keep-Alive: timeout=N` says it
    // will (without one it ignores the hint): a request sent on a connection the upstream is closing at that moment
    // is reset, and a POST must not be sent again (RFC 9110 §9.2.2), so the client would get a 502.
    agent:
      upstream.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets, timeout: options.timeoutMs })
        : new HttpAgent({ keepAlive: true, maxSockets, timeout: options.timeoutMs }),
    connectTo: {
      host: upstream.hostname.startsWith('[') ? upstream.hostname.slice(1, -1) : upstream.hostname,
      port: upstream.port,
    },
    deadlines: new DeadlineQueue(options.timeoutMs),
    pending: 0,
    buffered: 0,
  };
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');

  return ({ request, body }) => {
    const below = request.path.slice(options.basePath.length);
    const path = `${upstreamBase}${below}${request.query === '' ? '' : `?${request.query}`}`;
    const unsafe = unforwardablePath(below);
    if (unsafe) {
      return Promise.reject(
        new HttpError(
          'path_not_forwarded',
          `the proxy does not forward ${request.method} ${redactUrl(request.path)}: ${unsafe}, which an upstream could resolve outside ${options.basePath}; nothing was sent`,
        ),
      );
    }
    if (state.pending >= maxPending) {
      return Promise.reject(
        new HttpError(
          'upstream_busy',
          `the proxy already has ${state.pending} requests to the upstream ${upstream.origin} in flight or waiting, the most it holds (${maxPending}); ${request.method} ${redactUrl(path)} was not sent`,
        ),
      );
    }
    return new Promise<ForwardedResponse>((resolve, reject) =>
      new UpstreamExchange(state, request, path, resolve, reject).send(body),
    );
  };
}
