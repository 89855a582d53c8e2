import { HttpError } from '../core/errors/http-error.js';
import { tooLarge } from '../core/pipeline/read-body.js';
import { fetchHeaders, type BodyReader, type PlainRequest, type PlainResponse } from '../core/http/plain-http.js';
import type { Awaitable } from '../core/types/awaitable.js';

/** Reads a Fetch body stream up to `limit` bytes, cancelling it beyond (so an over-size body is never buffered whole). */
function streamReader(stream: ReadableStream<Uint8Array>): BodyReader {
  return async (limit) => {
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw new HttpError('request_aborted', 'the client stopped sending the body');
      }
      if (next.done) break;
      size += next.value.length;
      if (size > limit) {
        // Not awaited: the body may be one branch of a tee (MSW keeps a clone of the request), and a branch's cancel
        // settles only once every branch is cancelled, so waiting on it would never answer the 413.
        reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(next.value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    return body;
  };
}

/** An http(s) URL as a Request serialises it: scheme, `//`, authority, then the path (never empty), query and fragment. */
const serialisedUrl = /^https?:\/\/[^/?#]*(\/[^?#]*)(?:\?([^#]*))?/i;

/**
 * The path and the query (without its `?`) of a Request's URL, as `new URL(url)` gives them: the URL is
 * already parsed and serialised by the Request, so splitting its text gives the same parts, without making
 * a URL object and running its getters (a part of a process's first `mock.fetch`). A URL of another scheme
 * is parsed.
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  const parts = serialisedUrl.exec(url);
  if (!parts) {
    const parsed = new URL(url);
    return { path: parsed.pathname, query: parsed.search.slice(1) };
  }
  return { path: parts[1] as string, query: parts[2] ?? '' };
}

/**
 * A Fetch `Request` as the core's plain request; the body is read only when
 * the pipeline asks for it. Header names are folded to lower case: a
 * standard `Headers` gives them so, but happy-dom's keeps the case a name
 * was set with (`Authorization`), which the core would not find.
 */
export function toPlainRequest(request: Request): PlainRequest {
  const { path, query } = pathAndQuery(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    const before = headers[lower];
    headers[lower] = before === undefined ? value : `${before}, ${value}`;
  });
  const plain: PlainRequest = {
    method: request.method.toUpperCase(),
    path,
    query,
    headers,
  };
  if (request.body) plain.body = streamReader(request.body);
  return plain;
}

/** How long an injected `timeout` keeps a `mock.fetch` waiting when its request has no signal that aborts it first. */
export const faultTimeoutMs = 30_000;

/**
 * A body as a byte stream that holds its one chunk already: the stream `Response` would make of the bytes
 * (a byte stream, so that a BYOB reader works on it too), without the pull Node runs to fill it on the
 * first read, which on Node 20 is about a third of a process's first `Response` (0.7 of 2.1 ms read whole).
 * The chunk is a copy: a byte stream takes over the buffer it is given, and the core's bytes may be a
 * cached answer's, or a view into a larger buffer. Where a runtime has no byte streams, the bytes as they are.
 */
function bodyStream(bytes: Uint8Array): ReadableStream<Uint8Array> | Uint8Array {
  try {
    return new ReadableStream({
      type: 'bytes',
      start(controller) {
        controller.enqueue(bytes.slice());
        controller.close();
      },
    });
  } catch {
    return bytes;
  }
}

/**
 * The core's plain response as a `Response` of the given class (the global one, or MSW's): a body of bytes
 * as a filled byte stream, none for a status that cannot have one (1xx, 204, 205 and 304, or an empty body).
 */
export function fetchResponse(Class: typeof Response, response: PlainResponse): Response {
  const body = response.body && response.body.length > 0 ? bodyStream(response.body) : null;
  return new Class(body as ConstructorParameters<typeof Response>[0], {
    status: response.status,
    headers: fetchHeaders(response.headers),
  });
}

/** The core's plain response as a Fetch `Response`. A network fault rejects, as `fetch` does when a connection breaks. */
export function toFetchResponse(response: PlainResponse): Response {
  if (response.fault) throw new TypeError(`fetch failed (${response.fault}, injected by the mock)`);
  return fetchResponse(Response, response);
}

/** Resolves when the signal aborts, or after `faultTimeoutMs`, whichever comes first. */
function givenUp(signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, faultTimeoutMs);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * An http(s) URL already written as a `Request` would serialise it, so that its path and query can be cut
 * from the text: no fragment, no dot segments, no character the URL parser would percent-encode or
 * change, and no credentials, which a `Request` refuses (the host is left to `URL.canParse`, which judges
 * it without making a URL object).
 */
const plainUrl = /^https?:\/\/[^/?#\\\s@]+(?:\/[\w\-.~!$&'()*+,;=:@%/]*)?(?:\?[\w\-.~!$&()*+,;=:@%/?]*)?$/i;
const dotSegment = /\/\.|%2e/i;
/** A method as Fetch takes it (a token), other than the three it forbids. */
const plainMethod = /^(?!(?:connect|trace|track)$)[\w!#$%&'*+\-.^`|~]+$/i;
const headerName = /^[\w!#$%&'*+\-.^`|~]+$/;
/** A header value Fetch keeps as it is: Latin-1, no control character but tab inside, none at either end. */
const headerValue = /^(?:[\x21-\xff](?:[\t\x20-\xff]*[\x21-\xff])?)?$/;
const plainInitKeys = new Set(['method', 'headers', 'body', 'signal']);

/** Header names, folded to lower case, and their values, a name given twice joined with `, ` as `Headers` does. */
function plainHeaders(given: RequestInit['headers']): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  const pairs = Array.isArray(given) ? given : given === undefined ? [] : Object.entries(given);
  if (!Array.isArray(given) && given !== undefined) {
    const prototype = Object.getPrototypeOf(given) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return undefined;
  }
  for (const pair of pairs as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [name, value] = pair as [unknown, unknown];
    if (typeof name !== 'string' || typeof value !== 'string') return undefined;
    if (!headerName.test(name) || !headerValue.test(value)) return undefined;
    const lower = name.toLowerCase();
    const before = headers[lower];
    headers[lower] = before === undefined ? value : `${before}, ${value}`;
  }
  return headers;
}

/** A body given as text or bytes, as the bytes a `Request` would send (a copy); undefined for any other kind. */
function plainBody(body: unknown): Uint8Array | undefined {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength));
  return undefined;
}

/**
 * `fetch(url, init)`'s arguments as the core's plain request, read straight from a URL written as a
 * `Request` would write it and an init of a method, plain headers (an object or pairs), a text or bytes
 * body and a signal: the same request a `Request` built from them would give `toPlainRequest`, without
 * building it (the first `Request` and its `Headers` cost a process about as much as the mock's answer).
 * Undefined for anything else (a relative or unusual URL, a `Headers`, a stream or form body, other
 * options), which goes through `new Request`, as do its errors.
 */
export function plainFetchRequest(input: string, init: RequestInit | undefined): PlainRequest | undefined {
  if (!plainUrl.test(input) || dotSegment.test(input)) return undefined;
  if (typeof URL.canParse !== 'function' || !URL.canParse(input)) return undefined;
  if (init !== undefined) {
    for (const key in init) if (!plainInitKeys.has(key)) return undefined;
  }
  const method = init?.method ?? 'GET';
  if (typeof method !== 'string' || !plainMethod.test(method)) return undefined;
  const headers = plainHeaders(init?.headers);
  if (!headers) return undefined;
  // In upper case, as `toPlainRequest` gives every method to the core.
  const plain: PlainRequest = { method: method.toUpperCase(), ...pathAndQuery(input), headers };
  const sent = init?.body;
  if (sent === undefined || sent === null) return plain;
  if (plain.method === 'GET' || plain.method === 'HEAD') return undefined;
  const body = plainBody(sent);
  if (!body) return undefined;
  if (typeof sent === 'string' && headers['content-type'] === undefined) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  plain.body = body;
  return plain;
}

/**
 * `mock.fetch`: Fetch-standard, usable from any test without a port (like Hono's `app.fetch`): a `Request`,
 * or a URL and an init as `fetch` takes them. `handle` is the core's `handleNow` (its answer itself where it
 * has one at once): awaited here, with no promise of the core's own between.
 */
export function createFetchHandler(handle: (request: PlainRequest) => Awaitable<PlainResponse>) {
  return async function fetchFromMock(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const text = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    const plain = text === undefined ? undefined : plainFetchRequest(text, init);
    const request = plain
      ? undefined
      : input instanceof Request && init === undefined
        ? input
        : new Request(input, init);
    const response = await handle(plain ?? toPlainRequest(request as Request));
    // An injected timeout answers nothing: the caller gives up (its signal aborts), or the server's limit would.
    if (response.fault === 'timeout') await givenUp(request ? request.signal : init?.signal);
    return toFetchResponse(response);
  };
}
