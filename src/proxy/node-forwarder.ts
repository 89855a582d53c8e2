import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpError } from '../core/errors/http-error.js';
import type { ForwardedResponse, Forwarder } from '../core/pipeline/forward-upstream.js';
import { inflateWithZlib } from '../node/inflate-node.js';

export interface ForwarderOptions {
  /** The upstream's base address, ending with its version segment: `https://staging.example/v1`. */
  upstream: URL;
  /** The base path the proxy serves the API under (`/v1`): what comes after it is appended to the upstream's. */
  basePath: string;
  /** How long the upstream may stay silent, in ms; beyond it the client gets `504 upstream_timeout`. */
  timeoutMs: number;
  /** Largest upstream body the proxy reads, in bytes (the response is passed on whole, so it is held). */
  maxResponseBytes: number;
}

/** Headers that describe one hop, not the message: never forwarded (RFC 9110 §7.6.1), and `host`, which is the upstream's. */
const notForwarded = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'host',
]);

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

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Forwards with node:http(s), which (unlike fetch) hands back the body as it
 * came: a gzip body stays gzip for the client, and is inflated only to be
 * judged. Method, path below the base, query, headers (but hop-by-hop ones)
 * and body go on unchanged. An upstream that cannot be reached is `502
 * upstream_unreachable`; one that does not answer in time, `504
 * upstream_timeout`; both name the problem.
 */
export function createNodeForwarder(options: ForwarderOptions): Forwarder {
  const { upstream } = options;
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  // Connections to the upstream are kept and reused: a handshake per request would cost more than the rest.
  const agent =
    upstream.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, maxSockets: 64 })
      : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  return ({ request, body }) =>
    new Promise<ForwardedResponse>((resolve, reject) => {
      const below = request.path.slice(options.basePath.length);
      const path = `${upstreamBase}${below}${request.query === '' ? '' : `?${request.query}`}`;
      const outgoing = send(
        {
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path,
          headers: { ...forwardedHeaders(request.headers), host: upstream.host },
          timeout: options.timeoutMs,
          agent,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxResponseBytes) {
              incoming.destroy();
              reject(
                new HttpError(
                  'upstream_unreachable',
                  `the upstream's answer is larger than the proxy holds (${options.maxResponseBytes} bytes)`,
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          incoming.on('error', (error) =>
            reject(new HttpError('upstream_unreachable', `the upstream's answer broke off: ${error.message}`)),
          );
          incoming.on('end', () => {
            const bytes = Buffer.concat(chunks, size);
            const headers = responseHeaders(incoming.headers);
            const encoding = headers['content-encoding']?.trim().toLowerCase();
            const decoded =
              encoding && encoding !== 'identity' && bytes.length > 0
                ? inflateWithZlib(encoding, bytes, options.maxResponseBytes * 4).catch(() => bytes)
                : Promise.resolve(bytes);
            void decoded.then((plain) =>
              resolve({ status: incoming.statusCode ?? 502, headers, body: bytes, decoded: plain }),
            );
          });
        },
      );
      outgoing.on('timeout', () => {
        outgoing.destroy();
        reject(
          new HttpError(
            'upstream_timeout',
            `the upstream ${upstream.origin} sent nothing for ${options.timeoutMs} ms to ${request.method} ${path}`,
          ),
        );
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        reject(
          new HttpError(
            'upstream_unreachable',
            `the upstream ${upstream.origin} cannot be reached: ${error.code ?? error.message}`,
          ),
        );
      });
      outgoing.end(body);
    });
}
