/**
 * The request and response every adapter exchanges with the core: plain
 * objects, no Node or Fetch classes, so that the core runs the same in
 * node:http, Express, a Fetch handler, MSW and the browser.
 */

/** Reads the body bytes as sent (Content-Encoding not undone), refusing more than `limit` with `413`. */
export type BodyReader = (limit: number) => Promise<Uint8Array>;

export interface PlainRequest {
  /** Upper case, as sent. */
  method: string;
  /** The path as sent, still percent-encoded, without the query: `/v1/pets/1`. */
  path: string;
  /** The query string without its `?` ('' for none). */
  query: string;
  /** Lower-case names; a header sent several times is one value joined with `, `. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body: its bytes, or a reader for them; absent when the request has none. */
  body?: Uint8Array | BodyReader;
}

/**
 * A fault injected on purpose, which an adapter turns into a broken
 * connection instead of a response (see the faults of the admin API).
 */
export type NetworkFault = 'connection_reset' | 'empty_response' | 'malformed_response' | 'timeout';

export interface PlainResponse {
  status: number;
  /**
   * Lower-case names. `content-length` is set whenever there is a body. A
   * list is sent as the header repeated (the proxy passes `Set-Cookie` so).
   */
  headers: Record<string, string | string[]>;
  body?: Uint8Array;
  /** When set, the adapter breaks the connection this way and sends nothing of the rest. */
  fault?: NetworkFault;
}

/** Whether a header name has a character `toLowerCase` would change (A-Z, or anything beyond ASCII). */
function hasUpperCase(name: string): boolean {
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if ((code >= 65 && code <= 90) || code > 127) return true;
  }
  return false;
}

/**
 * Header names folded to lower case, as the core reads them (RFC 9110 §5.1:
 * field names are case-insensitive). The same object when every name is
 * lower case already, as node:http and a standard Fetch `Headers` give them,
 * so that path pays one scan of the names and allocates nothing; otherwise a
 * copy, where names that differ only by case become one header, their values
 * joined with `, ` in the order given (a header sent several times). happy-dom's
 * `Headers` and a plain request built by hand keep the case a name was set with.
 */
export function foldHeaderNames(headers: PlainRequest['headers']): PlainRequest['headers'] {
  let folded: Record<string, string | string[] | undefined> | undefined;
  for (const name in headers) {
    if (hasUpperCase(name)) {
      folded = {};
      break;
    }
  }
  if (!folded) return headers;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const before = folded[lower];
    folded[lower] = before === undefined ? value : [before, value].flat().join(', ');
  }
  return folded;
}

/** The request with its header names in lower case (the same request when they are already). */
export function withFoldedHeaders(request: PlainRequest): PlainRequest {
  const headers = foldHeaderNames(request.headers);
  return headers === request.headers ? request : { ...request, headers };
}

/** One header's value as a single string (a repeated header joined with `, `). */
export function headerValue(request: PlainRequest, name: string): string | undefined {
  return oneValue(request.headers[name]);
}

/**
 * A header's value, read by the caller, as a single string (a repeated header
 * joined with `, `). The hot path reads each header by its own name
 * (`oneValue(request.headers.host)`): each such read keeps its own feedback
 * in V8 and becomes a load of a known field, where one shared
 * `headers[name]` for every name is a generic lookup each time.
 */
export function oneValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

/** A response's headers as Fetch takes them: a list (`set-cookie` from the proxy) becomes the header repeated. */
export function fetchHeaders(headers: PlainResponse['headers']): Record<string, string> | Array<[string, string]> {
  let lists = false;
  for (const name in headers) if (Array.isArray(headers[name])) lists = true;
  if (!lists) return headers as Record<string, string>;
  return Object.entries(headers).flatMap(([name, value]): Array<[string, string]> =>
    Array.isArray(value) ? value.map((each): [string, string] => [name, each]) : [[name, value]],
  );
}

/**
 * Headers that describe one hop, not the message (RFC 9110 §7.6.1): a proxy
 * passes none of them on, in either direction.
 */
export const hopByHopHeaders: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
];
