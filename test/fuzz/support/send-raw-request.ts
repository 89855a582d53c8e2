import { Agent, request as httpRequest } from 'node:http';

/** A request as it goes on the wire: the target and header values are sent byte for byte. */
export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (no normalisation of dot segments, slashes or percent-encoding). */
  target: string;
  /** Header values as latin1 strings: each character is one byte on the wire. */
  headers: Record<string, string>;
  body?: Buffer | undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes; empty when there was none. */
  body: Buffer;
  /** Milliseconds from sending to the end of the response. */
  durationMs: number;
}

/** Thrown when no complete response arrives in time: the server hangs, or it dropped the connection. */
export class NoResponseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NoResponseError';
  }
}

/** A keep-alive agent for loopback load: a few sockets, reused from one request to the next. */
export function createKeepAliveAgent(maxSockets = 4): Agent {
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

/**
 * Sends one request with node:http (fetch would normalise the path and refuse
 * some methods) and reads the whole response. Rejects with `NoResponseError`
 * when the response does not end within `timeoutMs` or the connection fails.
 */
export function sendRawRequest(
  origin: string,
  raw: RawRequest,
  options: { agent: Agent; timeoutMs: number },
): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string, cause?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      reject(new NoResponseError(message, { cause }));
    };
    const outgoing = httpRequest(
      {
        hostname,
        port,
        method: raw.method,
        path: raw.target,
        headers: raw.body === undefined ? raw.headers : { ...raw.headers, 'Content-Length': raw.body.length },
        agent: options.agent,
        // The target is sent as given, even when it does not start with '/'.
        setHost: true,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', (error) => fail(`the response broke off: ${error.message}`, error));
        incoming.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks),
            durationMs: performance.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => fail(`no complete response within ${options.timeoutMs} ms`), options.timeoutMs);
    outgoing.on('error', (error) => fail(`the request failed: ${error.message}`, error));
    outgoing.end(raw.body);
  });
}
