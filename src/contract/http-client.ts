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
  /** The body's bytes as received. */
  bytes: Uint8Array;
  /** The body as text, for messages (a byte order mark kept, bytes that are not UTF-8 replaced). */
  text: string;
  durationMs: number;
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

function transportReason(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const code = err.cause?.code;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ETIMEDOUT: 'connection timed out',
    CERT_HAS_EXPIRED: 'TLS certificate has expired',
  };
  if (code !== undefined) return `${reasons[code] ?? err.cause?.message ?? code} (${code})`;
  return err.cause?.message ?? err.message;
}

const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Sends one request at a time, with a per-request timeout; JSON in, the body's text out. */
export function createHttpClient(options: HttpClientOptions) {
  return async function send(request: ContractRequest): Promise<RawResponse> {
    const url = new URL(`${options.baseUrl}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
    const auth = request.auth ?? { kind: 'token' };
    if (auth.kind === 'token') headers.authorization = `Bearer ${options.token}`;
    if (auth.kind === 'header') headers.authorization = auth.value;
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = 'raw' in request.body ? request.body.raw : stringifyJson(request.body.json);
    }
    const started = performance.now();
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new TransportError(`${describeRequest(request)}: ${transportReason(error, options.timeoutMs)}`);
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    const contentType = responseHeaders['content-type'] ?? '';
    return {
      status: response.status,
      headers: responseHeaders,
      mediaType: mediaTypeEssence(contentType),
      contentType,
      bytes,
      text: lenientUtf8.decode(bytes),
      durationMs: Math.round(performance.now() - started),
    };
  };
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
