import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpError } from '../core/errors/http-error.js';
import { hopByHopHeaders } from '../core/http/plain-http.js';
import { redactUrl } from '../core/http/redact-credentials.js';
import {
  type ForwardedResponse,
  type Forwarder,
  UpstreamFramingError,
  type UnjudgedAnswer,
} from '../core/pipeline/forward-upstream.js';
import { inflateWithZlib } from '../node/inflate-node.js';
import { streamedBody, whenAnswered } from '../node/node-listener.js';

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

/** Headers of the upstream's answer never passed on: hop-by-hop ones, and its challenge to a proxy. */
const notPassedOn = new Set([...hopByHopHeaders, 'proxy-authenticate']);

/** Headers of the client's request never forwarded: hop-by-hop ones, its credentials for a proxy, and `host`. */
const notForwarded = new Set([...hopByHopHeaders, 'proxy-authorization', 'host']);

/** The header names a `Connection` header names (hop-by-hop by its sender's say, RFC 9110 §7.6.1), lower case. */
function namedByConnection(connection: string | string[] | undefined): ReadonlySet<string> | undefined {
  if (connection === undefined) return undefined;
  const names = String(connection)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : new Set(names);
}

function forwardedHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const named = namedByConnection(headers.connection);
  const kept: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || notForwarded.has(name) || named?.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * The headers every forwarded answer carries, whatever the upstream sent: the
 * proxy serves them from its own origin, a loopback one every mock's CORS
 * policy trusts, so an upstream page must neither run there (`sandbox`: no
 * script, its own unique origin), nor be framed, nor be sniffed into a type
 * it was not sent as. An API's JSON is not affected by any of them.
 */
export const forwardedAnswerHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "sandbox; frame-ancestors 'none'",
} as const;

/**
 * The upstream's headers as they came, less those its `Connection` header
 * names (hop-by-hop by its say, RFC 9110 §7.6.1), with the protective
 * headers above: its own `Content-Security-Policy` is kept beside the
 * proxy's (a browser applies both). A header Node gives as a list
 * (`set-cookie`) stays one, to be sent repeated.
 */
function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = namedByConnection(headers.connection);
  const kept: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    // Hop-by-hop headers are the proxy's own connection's business, not the client's (the core drops them too).
    if (value !== undefined && !named?.has(name) && !notPassedOn.has(name)) kept[name] = value;
  }
  const policy = kept['content-security-policy'];
  kept['x-content-type-options'] = forwardedAnswerHeaders['x-content-type-options'];
  kept['x-frame-options'] = forwardedAnswerHeaders['x-frame-options'];
  kept['content-security-policy'] =
    policy === undefined
      ? forwardedAnswerHeaders['content-security-policy']
      : [...(Array.isArray(policy) ? policy : [policy]), forwardedAnswerHeaders['content-security-policy']];
  return kept;
}

/**
 * Why a path must not be forwarded, or `undefined`: a dot-segment (`.`,
 * `..`, percent-encoded or not, in any case), an encoded slash or backslash,
 * a backslash, or an empty segment (`//evil.test/x`). An upstream (or a
 * proxy in front of it) that normalises the path would serve another one
 * than the client named, outside the API's base: `/v1/../admin` is `/admin`.
 */
export function unforwardablePath(below: string): string | undefined {
  if (below.includes('%')) {
    if (/%2f|%5c/i.test(below)) return 'it holds an encoded slash or backslash (%2F, %5C)';
  }
  if (below.includes('\\')) return 'it holds a backslash';
  if (below.includes('//')) return 'it holds an empty segment (//)';
  // A dot-segment has a dot in it, written or encoded: most paths have neither.
  if (!below.includes('.') && !below.includes('%')) return undefined;
  for (const segment of below.split('/')) {
    const decoded = segment.replace(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..') return `it holds the dot-segment ${JSON.stringify(segment)}`;
  }
  return undefined;
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

function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * The answer's bytes with their Content-Encoding undone, at most `limit`
 * bytes of them; or why they cannot be judged: larger than the limit, not
 * valid data for their encoding, or an encoding the proxy does not know. The
 * reasons name no byte of the body, so that nothing the upstream sent reaches
 * a report or a JUnit file raw.
 */
async function decodeForJudging(
  encoding: string | undefined,
  bytes: Buffer,
  limit: number,
): Promise<{ decoded: Uint8Array } | { unjudged: UnjudgedAnswer }> {
  const tooLarge: UnjudgedAnswer = {
    rule: 'too-large-to-judge',
    reason: `the decoded answer is larger than ${mebibytes(limit)}, the most the proxy judges; it was passed on unjudged`,
  };
  if (!encoding || encoding === 'identity' || bytes.length === 0) {
    return bytes.length > limit ? { unjudged: tooLarge } : { decoded: bytes };
  }
  try {
    return { decoded: await inflateWithZlib(encoding, bytes, limit) };
  } catch (error) {
    const code = error instanceof HttpError ? error.code : undefined;
    if (code === 'payload_too_large') return { unjudged: tooLarge };
    if (code === 'unsupported_media_type') {
      return {
        unjudged: {
          rule: 'too-large-to-judge',
          reason: `the answer's Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not one the proxy can undo (gzip, deflate, br); it was passed on unjudged`,
        },
      };
    }
    return {
      unjudged: {
        rule: 'content-encoding',
        reason: `the answer is not valid ${JSON.stringify(encoding.slice(0, 40))} data, as its Content-Encoding says (RFC 9110 §8.4); it was passed on unjudged`,
      },
    };
  }
}

/**
 * Forwards with node:http(s), which (unlike fetch) hands back the body as it
 * came: a gzip body stays gzip for the client, and is inflated only to be
 * judged. Method, path below the base, query, headers (but hop-by-hop ones)
 * and body go on unchanged; a path that could leave the API's base once an
 * upstream normalises it (`/v1/../admin`, `/v1/%2e%2e/admin`, `/v1/..%2fadmin`,
 * `/v1//evil.test/x`) is refused, `400 path_not_forwarded`, before anything is sent.
 *
 * Every exchange is bounded whatever the upstream does: it ends within
 * `timeoutMs` (`504 upstream_timeout`, the upstream request cancelled); an
 * upstream that breaks HTTP (a `101` to a request that asked for no upgrade,
 * a reset mid-answer) is `502`; an unreachable one `502 upstream_unreachable`;
 * the request is cancelled when the client leaves (`request.onClientLeave`); and at
 * most `maxPending` requests are in flight or waiting, beyond which the client
 * gets `503 upstream_busy` at once. The answers held to be judged hold at
 * most `maxBufferedBytes` together: one that does not fit is passed on as it
 * arrives, unjudged (its body piped to the client by the node:http adapter,
 * still within `timeoutMs`). Messages name the request with its credentials redacted.
 */
export function createNodeForwarder(options: ForwarderOptions): Forwarder {
  const { upstream } = options;
  const maxJudged = options.maxJudgedBytes ?? defaultMaxJudgedBytes;
  const maxPending = options.maxPending ?? defaultMaxPending;
  const maxBuffered = options.maxBufferedBytes ?? defaultMaxBufferedBytes;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  // Connections to the upstream are kept and reused: a handshake per request would cost more than the rest.
  const agent =
    upstream.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, maxSockets })
      : new HttpAgent({ keepAlive: true, maxSockets });
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  let pending = 0;
  /** Bytes of answers held now, every answer together, until each is written to its client. */
  let buffered = 0;

  return ({ request, body }) => {
    const below = request.path.slice(options.basePath.length);
    const path = `${upstreamBase}${below}${request.query === '' ? '' : `?${request.query}`}`;
    // How messages name the request, its credentials redacted: built only when a message needs it.
    let namedText: string | undefined;
    const named = (): string => (namedText ??= `${request.method} ${redactUrl(path)}`);
    const unsafe = unforwardablePath(below);
    if (unsafe) {
      return Promise.reject(
        new HttpError(
          'path_not_forwarded',
          `the proxy does not forward ${request.method} ${redactUrl(request.path)}: ${unsafe}, which an upstream could resolve outside ${options.basePath}; nothing was sent`,
        ),
      );
    }
    if (pending >= maxPending) {
      return Promise.reject(
        new HttpError(
          'upstream_busy',
          `the proxy already has ${pending} requests to the upstream ${upstream.origin} in flight or waiting, the most it holds (${maxPending}); ${named()} was not sent`,
        ),
      );
    }
    pending++;
    return new Promise<ForwardedResponse>((resolve, reject) => {
      // Set once the request is made; the deadline and an abort before then have nothing to cancel.
      const sent: { request?: ClientRequest } = {};
      /** Bytes of the answer's body received so far; undefined before its status line. */
      let received: number | undefined;
      /** How the answer says its body ends, once its status line and headers are read. */
      let framing: Framing | undefined;
      let settled = false;
      /** Once the answer is passed on as it arrives: the upstream's part ends with its last byte, not at `finish`. */
      let streaming = false;
      /** This answer's share of `buffered`, given back once it is written (or abandoned). */
      let held = 0;
      const hold = (bytes: number): void => {
        held += bytes;
        buffered += bytes;
      };
      const giveBack = (): void => {
        buffered -= held;
        held = 0;
      };
      // Set once the client's leaving is listened for (the listener may run at once, before it is set).
      const leaving: { stop?: () => void } = {};
      const finish = (error: HttpError | undefined, answer?: ForwardedResponse): void => {
        if (settled) return;
        settled = true;
        pending--;
        if (!streaming) clearTimeout(deadline);
        if (error) {
          leaving.stop?.();
          // Cancelled: the socket is destroyed, never handed back to the pool half-read.
          sent.request?.destroy();
          giveBack();
          reject(error);
          return;
        }
        // What was held is given back once the client has it (or has left), not when it is handed to the core.
        whenAnswered(request, giveBack);
        if (!streaming) leaving.stop?.();
        resolve(answer as ForwardedResponse);
      };
      const deadline = setTimeout(() => {
        if (streaming) {
          // The status is sent: the connection is all that can say the answer was cut.
          sent.request?.destroy();
          return;
        }
        finish(
          new HttpError(
            'upstream_timeout',
            `the upstream ${upstream.origin} did not answer ${named()} whole within ${options.timeoutMs} ms; the request was cancelled`,
          ),
        );
      }, options.timeoutMs);
      const onAbort = (): void => {
        if (streaming) sent.request?.destroy();
        finish(new HttpError('request_aborted', `the client left before the upstream answered ${named()}`));
      };
      leaving.stop = request.onClientLeave?.(onAbort);
      if (settled) return;
      /**
       * A body cut short of what its framing announces (its Content-Length, or a chunked body's last chunk) is the
       * deployment's answer broken, not a network fault: the error that says so, or undefined for any other end.
       */
      const cutShort = (): UpstreamFramingError | undefined => {
        const size = received ?? 0;
        const cut =
          framing?.announced !== undefined && size < framing.announced
            ? `it ended after ${size} of the ${framing.announced} bytes its Content-Length announces (RFC 9112 §6.3: an incomplete message)`
            : framing?.chunked
              ? `it ended after ${size} bytes of its chunked body, before the last chunk (RFC 9112 §7.1)`
              : undefined;
        return cut === undefined
          ? undefined
          : new UpstreamFramingError(cut, `the upstream ${upstream.origin}'s answer to ${named()} is broken: ${cut}`);
      };
      const protocolError = (what: string): HttpError =>
        new HttpError('upstream_protocol_error', `the upstream ${upstream.origin} ${what} to ${named()}`);
      const tooLarge = (): HttpError =>
        new HttpError(
          'upstream_unreachable',
          `the upstream's answer to ${named()} is larger than the proxy holds (${options.maxResponseBytes} bytes)`,
        );

      const outgoing = send(
        {
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path,
          headers: { ...forwardedHeaders(request.headers), host: upstream.host },
          agent,
        },
        (incoming) => {
          const status = incoming.statusCode ?? 0;
          // Node waits past 100, 102 and 103 for the final answer; anything else below 200 that reaches here
          // (a 101 Switching Protocols to a request that asked for no upgrade) is not an answer HTTP allows.
          if (status < 200) {
            finish(
              protocolError(`answered ${status} ${incoming.statusMessage ?? ''}`.trimEnd() + ', not a final status,'),
            );
            return;
          }
          const announced = Number(incoming.headers['content-length']);
          framing = {
            status,
            announced: incoming.headers['content-length'] === undefined ? undefined : announced,
            chunked: /\bchunked\b/i.test(String(incoming.headers['transfer-encoding'] ?? '')),
          };
          if (announced > options.maxResponseBytes) {
            finish(tooLarge());
            return;
          }
          const headers = responseHeaders(incoming.headers);
          const chunks: Buffer[] = [];
          let size = 0;
          received = 0;
          // An answer that announces its length and fits beside those held is read into one buffer of that length,
          // its share of the budget taken at once: no chunks kept, and no second copy of the body when it ends.
          const length = framing.announced;
          const whole =
            length !== undefined && length > 0 && buffered + length <= maxBuffered
              ? Buffer.allocUnsafe(length)
              : undefined;
          if (whole) hold(whole.length);
          /** Beyond the budget: the bytes so far go back into the stream, which the adapter pipes to the client. */
          const passOnUnjudged = (next: Buffer): void => {
            streaming = true;
            // Paused first, so that what is put back stays in the stream's buffer until the adapter pipes it.
            incoming.off('data', onData);
            incoming.pause();
            incoming.unshift(next);
            if (chunks.length > 0) incoming.unshift(Buffer.concat(chunks));
            chunks.length = 0;
            // Counted again as they flow to the client, the bytes put back included.
            size = 0;
            incoming.on('data', (chunk: Buffer) => {
              size += chunk.length;
              // Beyond what one answer may be: cut, as a held one would have been refused.
              if (size > options.maxResponseBytes) sent.request?.destroy();
            });
            incoming.once('end', () => clearTimeout(deadline));
            incoming.once('close', () => {
              clearTimeout(deadline);
              leaving.stop?.();
            });
            finish(undefined, {
              status,
              headers,
              body: streamedBody(incoming, incoming.headers['content-length']),
              decoded: undefined,
              unjudged: {
                rule: 'too-large-to-judge',
                reason: `the proxy already held ${mebibytes(buffered)} of answers, and holds at most ${mebibytes(maxBuffered)} at once to judge them; this answer was passed on as it came, unjudged`,
              },
            });
          };
          const onData = (chunk: Buffer): void => {
            if (whole && size + chunk.length <= whole.length) {
              chunk.copy(whole, size);
              size += chunk.length;
              received = size;
              return;
            }
            size += chunk.length;
            received = size;
            if (size > options.maxResponseBytes) {
              finish(tooLarge());
              return;
            }
            if (buffered + chunk.length > maxBuffered) {
              passOnUnjudged(chunk);
              return;
            }
            hold(chunk.length);
            chunks.push(chunk);
          };
          incoming.on('data', onData);
          const brokeOff = (): void => {
            finish(
              cutShort() ??
                new HttpError(
                  'upstream_unreachable',
                  `the upstream ${upstream.origin} broke off its answer to ${named()} after ${size} bytes of the body`,
                ),
            );
          };
          incoming.on('error', () => {
            if (!streaming) brokeOff();
          });
          incoming.on('close', () => {
            if (!incoming.complete && !streaming) brokeOff();
          });
          incoming.on('end', () => {
            if (settled || streaming) return;
            // The upstream's part is done within the deadline; decoding to judge is the proxy's own (bounded) work.
            clearTimeout(deadline);
            const bytes = whole ? whole.subarray(0, size) : Buffer.concat(chunks, size);
            chunks.length = 0;
            const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
            void decodeForJudging(encoding, bytes, maxJudged).then((judged) => {
              let answer: ForwardedResponse;
              if ('decoded' in judged && judged.decoded !== bytes && buffered + judged.decoded.length > maxBuffered) {
                // Inflated, it does not fit beside the answers already held: not judged.
                answer = {
                  status,
                  headers,
                  body: bytes,
                  decoded: undefined,
                  unjudged: {
                    rule: 'too-large-to-judge',
                    reason: `the proxy already held ${mebibytes(buffered)} of answers, and holds at most ${mebibytes(maxBuffered)} at once to judge them; this answer was passed on unjudged`,
                  },
                };
              } else {
                if ('decoded' in judged && judged.decoded !== bytes) hold(judged.decoded.length);
                answer = {
                  status,
                  headers,
                  body: bytes,
                  ...('decoded' in judged
                    ? { decoded: judged.decoded }
                    : { decoded: undefined, unjudged: judged.unjudged }),
                };
              }
              finish(undefined, answer);
            });
          });
        },
      );
      sent.request = outgoing;
      // A 101 Node recognises as an upgrade comes here, not to the response callback.
      outgoing.on('upgrade', (_incoming, socket) => {
        socket.destroy();
        finish(protocolError('answered 101 Switching Protocols, though the request asked for no upgrade,'));
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const cause = error.code ?? error.message;
        // Node's parser refused what came after the status line: the answer's framing is broken (its body longer
        // than its Content-Length, bad chunks, a body where there is none), whatever bytes were counted so far.
        if (framing && cause.startsWith('HPE_')) {
          const problem = framingProblem(request.method, framing, cause);
          finish(
            new UpstreamFramingError(
              problem,
              `the upstream ${upstream.origin}'s answer to ${named()} is broken: ${problem}`,
            ),
          );
          return;
        }
        const cut = framing ? cutShort() : undefined;
        if (cut) {
          finish(cut);
          return;
        }
        finish(
          new HttpError(
            'upstream_unreachable',
            received === undefined
              ? `the upstream ${upstream.origin} cannot be reached: ${cause}`
              : `the upstream ${upstream.origin} broke off its answer to ${named()} after ${received} bytes of the body (${cause})`,
          ),
        );
      });
      outgoing.end(body);
    });
  };
}
