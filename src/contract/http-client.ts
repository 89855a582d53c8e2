import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { mediaTypeEssence } from '../core/http/media-type.js';
import { stringifyJson } from '../core/json/exact-json.js';

/** How a request authenticates: the configured key, none at all, or a literal Authorization header. */
export type AuthMode = { kind: 'token' } | { kind: 'none' } | { kind: 'header'; value: string };

export interface ContractRequest {
  method: string;
  /** Path below the base URL, e.g. `/pets/3`. */
  path: string;
  query?: Record<string, string>;
  /**
   * A JSON value to send (bigints and `NumberLiteral`s written exactly), or
   * `{ raw }` for text sent as-is with a JSON content type.
   */
  body?: { json: unknown } | { raw: string };
  auth?: AuthMode;
  /** Headers of this request alone (names in lower case), such as `if-none-match`; never a credential. */
  headers?: Record<string, string>;
}

/**
 * A response as it came over the wire. The client never parses the body: the
 * oracle (src/core/oracle/) does, exactly, for whoever needs it, so no number
 * is ever rounded on the way, and a byte order mark or a byte that is not
 * UTF-8 is seen, not smoothed over.
 */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The media type without parameters, lower case; empty when there is no Content-Type. */
  mediaType: string;
  contentType: string;
  /** The body's bytes as received (decoded when it came with a Content-Encoding the client asked for). */
  bytes: Uint8Array;
  /** The body as text, for messages (a byte order mark kept, bytes that are not UTF-8 replaced). */
  text: string;
  durationMs: number;
  /**
   * What was wrong with how the answer was framed, when it was (RFC 9112):
   * more or fewer body bytes than its Content-Length, a chunked body that
   * broke off or was malformed, a body where the status allows none. The
   * bytes are what came within the framing.
   */
  framing?: string;
  /** Why the body could not be decoded as its Content-Encoding says, when it could not. */
  encoding?: string;
}

/** The target could not be reached or did not answer in time. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface HttpClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** Extra headers sent with every request (`--header`), names in lower case. */
  headers?: Record<string, string>;
}

/** `GET /pets?limit=1`: how a request is named in messages (never with headers). */
export function describeRequest(request: ContractRequest): string {
  const query = new URLSearchParams(request.query ?? {}).toString();
  return `${request.method} ${request.path}${query ? `?${query}` : ''}`;
}

const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed while sending',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
};

function transportReason(error: unknown): string {
  const err = error as Error & { code?: string };
  const code = err.code;
  if (code !== undefined && !code.startsWith('HPE_')) return `${reasons[code] ?? err.message} (${code})`;
  return err.message;
}

const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The most body bytes the client reads of one answer (and the most a Content-Encoding may expand it to). */
export const maxBodyBytes = 64 * 1024 * 1024;

/** Header values by lower-case name, repeated fields joined with `, ` (as a Fetch `Headers` does). */
function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = response.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = (raw[index] ?? '').toLowerCase();
    const value = raw[index + 1] ?? '';
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** The body decoded as its Content-Encoding says (gzip, deflate, br, the ones asked for), or why it cannot be. */
function decoded(bytes: Buffer, encoding: string | undefined): { bytes: Buffer; problem?: string } {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let body = bytes;
  for (const coding of codings.reverse()) {
    const decode =
      coding === 'gzip' || coding === 'x-gzip'
        ? gunzipSync
        : coding === 'deflate'
          ? inflateSync
          : coding === 'br'
            ? brotliDecompressSync
            : undefined;
    if (!decode) return { bytes, problem: `its Content-Encoding '${coding}' is not one the request accepted` };
    try {
      body = decode(body, { maxOutputLength: maxBodyBytes });
    } catch (error) {
      return { bytes, problem: `the body does not decode as ${coding}: ${(error as Error).message}` };
    }
  }
  return { bytes: body };
}

/** How long a kept-alive connection may stay idle before the client drops it. */
const idleMs = 4_000;

/** Statuses whose answers have no body, whatever their headers say (RFC 9110 §6.4.1). */
const bodiless = new Set([204, 304]);

/** `5 bytes`, `1 byte`. */
const bytesText = (count: number) => `${count} byte${count === 1 ? '' : 's'}`;

/**
 * Sends requests over HTTP/1.1 with keep-alive (node:http and node:https, so
 * that the answer's framing is seen as it came), with a per-request timeout
 * covering the whole exchange; JSON in, the body's bytes out. Several may be
 * in flight at once (each on a connection of its own). An answer framed
 * wrongly (more or fewer bytes than its Content-Length, a chunked body that
 * breaks off, a body after a 204) is returned with what came and `framing`
 * saying what was wrong, never thrown: it is the deployment's fault, which
 * the oracle judges (`framing`). A request sent on a kept-alive connection
 * the server had just closed is sent once more on a new one.
 */
export function createHttpClient(options: HttpClientOptions) {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === 'https:';
  // Idle connections are dropped before the 5 s after which common servers close them (sooner when they say so in
  // Keep-Alive: timeout=N), so that a request rarely meets a connection the server has just closed.
  const pooling = { keepAlive: true, timeout: idleMs };
  const agent = secure ? new HttpsAgent(pooling) : new HttpAgent(pooling);
  const send = secure ? httpsRequest : httpRequest;
  /** What each kept-alive connection last answered: bytes that arrive after it belong to that answer. */
  const lastAnswer = new WeakMap<Socket, string>();
  /** The listener that watches an idle kept-alive connection for bytes no request asked for. */
  const idleWatch = new WeakMap<Socket, (chunk: Buffer) => void>();
  /** Bytes that came on an idle connection after an answer had ended: said with the next answer. */
  let surplus: string | undefined;
  agent.on('free', (socket: Socket) => {
    const watch = (chunk: Buffer) => {
      surplus ??= `the answer to ${lastAnswer.get(socket) ?? 'an earlier request'} was followed by ${bytesText(chunk.length)} more than it announced, after it had ended`;
      socket.destroy();
    };
    idleWatch.set(socket, watch);
    socket.once('data', watch);
  });

  const once = (request: ContractRequest, url: URL, headers: Record<string, string>, body: Buffer | undefined) =>
    new Promise<RawResponse & { retry?: boolean }>((resolve, reject) => {
      const started = performance.now();
      const what = describeRequest(request);
      let settled = false;
      let answered: { response: IncomingMessage; chunks: Buffer[]; received: number } | undefined;
      const finish = (framing?: string) => {
        if (settled || !answered) return;
        settled = true;
        clearTimeout(timer);
        const { response, chunks } = answered;
        const responseHeaders = headersOf(response);
        const raw = Buffer.concat(chunks);
        const status = response.statusCode ?? 0;
        // A 204 or 304 has no body to decode, whatever Content-Encoding it repeats of the 200 it stands for.
        const { bytes, problem } =
          framing || bodiless.has(status)
            ? { bytes: raw, problem: undefined }
            : decoded(raw, responseHeaders['content-encoding']);
        const contentType = responseHeaders['content-type'] ?? '';
        resolve({
          status,
          headers: responseHeaders,
          mediaType: mediaTypeEssence(contentType),
          contentType,
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          text: lenientUtf8.decode(bytes),
          durationMs: Math.round(performance.now() - started),
          ...(framing ? { framing } : {}),
          ...(problem ? { encoding: problem } : {}),
        });
      };
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(error);
      };
      /** What an answer's body lacks or has too much of, by its headers and what came. */
      const shortfall = (): string => {
        if (!answered) return '';
        const length = answered.response.headers['content-length'];
        return length !== undefined
          ? `${bytesText(answered.received)} of the ${bytesText(Number(length))} its Content-Length announced`
          : `${bytesText(answered.received)} of a chunked body without its last chunk`;
      };

      const req = send(url, { method: request.method, headers, agent });
      // A kept-alive connection taken up again is no longer idle: its bytes are this answer's.
      req.on('socket', (socket: Socket) => {
        const watch = idleWatch.get(socket);
        if (watch) socket.removeListener('data', watch);
      });
      const timer = setTimeout(() => {
        if (answered) {
          // The status and headers came, the rest of the body did not.
          finish(`the body stopped after ${shortfall()}: nothing more came within ${options.timeoutMs} ms`);
          req.destroy();
        } else fail(new TransportError(`${what}: no answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      /**
       * What was wrong with the framing, as first seen (said once the body's last chunks, still on their way
       * through the stream, have come): the answer ends with what came, and says so.
       */
      let problem: (() => string) | undefined;
      const broken = (what: () => string) => {
        problem ??= what;
        setImmediate(() => finish(problem?.()));
      };
      req.on('error', (error: Error & { code?: string; bytesParsed?: number; rawPacket?: Buffer }) => {
        const code = error.code ?? '';
        if (answered) {
          const { response } = answered;
          const status = response.statusCode ?? 0;
          if (!response.complete) {
            broken(() =>
              code.startsWith('HPE_')
                ? `the body is not framed as HTTP/1.1 says after ${bytesText(answered?.received ?? 0)}: ${error.message}`
                : `the connection closed after ${shortfall()}`,
            );
            return;
          }
          // Bytes the parser could not take once the answer's framing had ended: more body than it announced.
          const extra = error.rawPacket ? error.rawPacket.length - (error.bytesParsed ?? 0) : undefined;
          const more = extra === undefined || extra <= 0 ? 'more bytes' : `${bytesText(extra)} more`;
          broken(() =>
            bodiless.has(status)
              ? `a ${status} has no body, yet ${more === 'more bytes' ? 'bytes' : more.replace(' more', '')} followed its headers`
              : `${more} came after the ${bytesText(answered?.received ?? 0)} its ${response.headers['content-length'] === undefined ? 'chunked body held' : 'Content-Length announced'}`,
          );
          return;
        }
        if (settled) return;
        // Nothing of this answer came.
        if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
          // The server closed the kept-alive connection as the request left: it never saw it. The other idle ones
          // are as old: they go too, so that it is sent again on a new connection.
          for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
          settled = true;
          clearTimeout(timer);
          resolve({ ...emptyAnswer(), retry: true });
          return;
        }
        fail(new TransportError(`${what}: ${transportReason(error)}`));
      });
      req.on('response', (response) => {
        answered = { response, chunks: [], received: 0 };
        lastAnswer.set(response.socket, `${what} → ${response.statusCode ?? 0}`);
        const current = answered;
        response.on('data', (chunk: Buffer) => {
          current.received += chunk.length;
          if (current.received > maxBodyBytes) {
            fail(
              new TransportError(`${what}: the answer is larger than ${maxBodyBytes} bytes, more than the suite reads`),
            );
            return;
          }
          current.chunks.push(chunk);
        });
        // Bytes past the framing show as a parser error right after the end: give them a moment to.
        response.on('end', () => setImmediate(() => finish(problem?.())));
        const closed = () => `the connection closed after ${shortfall()}`;
        response.on('aborted', () => broken(closed));
        response.on('error', () => broken(closed));
      });
      req.end(body);
    });

  async function sendRequest(request: ContractRequest): Promise<RawResponse> {
    const url = new URL(`${options.baseUrl}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = {
      'accept-encoding': 'gzip, deflate, br',
      ...options.headers,
      ...request.headers,
      accept: 'application/json',
    };
    const auth = request.auth ?? { kind: 'token' };
    if (auth.kind === 'token') headers.authorization = `Bearer ${options.token}`;
    if (auth.kind === 'header') headers.authorization = auth.value;
    let body: Buffer | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from('raw' in request.body ? request.body.raw : stringifyJson(request.body.json), 'utf8');
      headers['content-length'] = String(body.length);
    }
    for (let attempt = 0; ; attempt++) {
      const { retry, ...response } = await once(request, url, headers, body);
      if (retry && attempt < 2) continue;
      if (retry) throw new TransportError(`${describeRequest(request)}: connection reset (ECONNRESET)`);
      // Bytes that came after an earlier answer had ended are that answer's fault, said with this one.
      const late = surplus;
      surplus = undefined;
      return late === undefined || response.framing !== undefined ? response : { ...response, framing: late };
    }
  }
  return sendRequest;
}

function emptyAnswer(): RawResponse {
  return { status: 0, headers: {}, mediaType: '', contentType: '', bytes: new Uint8Array(), text: '', durationMs: 0 };
}

export type SendRequest = ReturnType<typeof createHttpClient>;

/**
 * Checks that the deployment answers HTTP at the base URL, serves the API there
 * and accepts the key: an authenticated GET of `path` (the document's first
 * list, e.g. `/pets`) that is neither 404 nor 401. Returns the one-line reason
 * when not.
 */
export async function probeTarget(options: HttpClientOptions, path: string): Promise<string | undefined> {
  const send = createHttpClient(options);
  const request = { method: 'GET', path };
  try {
    const response = await send(request);
    if (response.status === 404) {
      const hint = /\/v\d+$/.test(new URL(options.baseUrl).pathname)
        ? 'check the path of the base URL'
        : 'the base URL must include the version segment, e.g. /v1';
      return `${options.baseUrl}${path} answered 404: ${options.baseUrl} is not the API's base URL (${hint})`;
    }
    if (response.status === 401) {
      return `${options.baseUrl} refused the key: GET ${path} with it answered 401 (check --token or CONTRACT_TOKEN)`;
    }
    return undefined;
  } catch (error) {
    const prefix = `${describeRequest(request)}: `;
    const message = (error as Error).message;
    return `cannot reach ${options.baseUrl}: ${message.startsWith(prefix) ? message.slice(prefix.length) : message}`;
  }
}
