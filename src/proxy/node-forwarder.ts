import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpError } from '../core/errors/http-error.js';
import { hopByHopHeaders } from '../core/http/plain-http.js';
import { redactUrl } from '../core/http/redact-credentials.js';
import type { ForwardedResponse, Forwarder, UnjudgedAnswer } from '../core/pipeline/forward-upstream.js';
import { inflateWithZlib } from '../node/inflate-node.js';

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
}

export const defaultMaxJudgedBytes = 8 * 1024 * 1024;
export const defaultMaxPending = 256;
/** Connections kept to the upstream at most; more requests wait for one (counted in `maxPending`). */
const maxSockets = 64;

/** Headers of the client's request never forwarded: hop-by-hop ones, its credentials for a proxy, and `host`. */
const notForwarded = new Set([...hopByHopHeaders, 'proxy-authorization', 'host']);

function forwardedHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || notForwarded.has(name) || named.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/** The upstream's headers as they came: a header Node gives as a list (`set-cookie`) stays one, to be sent repeated. */
function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) kept[name] = value;
  }
  return kept;
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
 * and body go on unchanged.
 *
 * Every exchange is bounded whatever the upstream does: it ends within
 * `timeoutMs` (`504 upstream_timeout`, the upstream request cancelled); an
 * upstream that breaks HTTP (a `101` to a request that asked for no upgrade,
 * a reset mid-answer) is `502`; an unreachable one `502 upstream_unreachable`;
 * the request is cancelled when the client leaves (`request.onClientLeave`); and at
 * most `maxPending` requests are in flight or waiting, beyond which the client
 * gets `503 upstream_busy` at once. Messages name the request with its
 * credentials redacted.
 */
export function createNodeForwarder(options: ForwarderOptions): Forwarder {
  const { upstream } = options;
  const maxJudged = options.maxJudgedBytes ?? defaultMaxJudgedBytes;
  const maxPending = options.maxPending ?? defaultMaxPending;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  // Connections to the upstream are kept and reused: a handshake per request would cost more than the rest.
  const agent =
    upstream.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, maxSockets })
      : new HttpAgent({ keepAlive: true, maxSockets });
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  let pending = 0;

  return ({ request, body }) => {
    const below = request.path.slice(options.basePath.length);
    const path = `${upstreamBase}${below}${request.query === '' ? '' : `?${request.query}`}`;
    // How messages name the request, its credentials redacted: built only when a message needs it.
    let namedText: string | undefined;
    const named = (): string => (namedText ??= `${request.method} ${redactUrl(path)}`);
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
      let settled = false;
      // Set once the client's leaving is listened for (the listener may run at once, before it is set).
      const leaving: { stop?: () => void } = {};
      const finish = (error: HttpError | undefined, answer?: ForwardedResponse): void => {
        if (settled) return;
        settled = true;
        pending--;
        clearTimeout(deadline);
        leaving.stop?.();
        if (error) {
          // Cancelled: the socket is destroyed, never handed back to the pool half-read.
          sent.request?.destroy();
          reject(error);
        } else resolve(answer as ForwardedResponse);
      };
      const deadline = setTimeout(
        () =>
          finish(
            new HttpError(
              'upstream_timeout',
              `the upstream ${upstream.origin} did not answer ${named()} whole within ${options.timeoutMs} ms; the request was cancelled`,
            ),
          ),
        options.timeoutMs,
      );
      const onAbort = (): void =>
        finish(new HttpError('request_aborted', `the client left before the upstream answered ${named()}`));
      leaving.stop = request.onClientLeave?.(onAbort);
      if (settled) return;
      const protocolError = (what: string): HttpError =>
        new HttpError('upstream_protocol_error', `the upstream ${upstream.origin} ${what} to ${named()}`);

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
          const chunks: Buffer[] = [];
          let size = 0;
          received = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            received = size;
            if (size > options.maxResponseBytes) {
              finish(
                new HttpError(
                  'upstream_unreachable',
                  `the upstream's answer to ${named()} is larger than the proxy holds (${options.maxResponseBytes} bytes)`,
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          const brokeOff = (): void =>
            finish(
              new HttpError(
                'upstream_unreachable',
                `the upstream ${upstream.origin} broke off its answer to ${named()} after ${size} bytes of the body`,
              ),
            );
          incoming.on('error', brokeOff);
          incoming.on('close', () => {
            if (!incoming.complete) brokeOff();
          });
          incoming.on('end', () => {
            if (settled) return;
            // The upstream's part is done within the deadline; decoding to judge is the proxy's own (bounded) work.
            clearTimeout(deadline);
            const bytes = Buffer.concat(chunks, size);
            const headers = responseHeaders(incoming.headers);
            const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
            void decodeForJudging(encoding, bytes, maxJudged).then((judged) =>
              finish(undefined, {
                status,
                headers,
                body: bytes,
                ...('decoded' in judged
                  ? { decoded: judged.decoded }
                  : { decoded: undefined, unjudged: judged.unjudged }),
              }),
            );
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
