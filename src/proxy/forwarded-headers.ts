import type { IncomingHttpHeaders } from 'node:http';
import { hopByHopHeaders } from '../core/http/plain-http.js';

/** Headers of the upstream's answer never passed on: hop-by-hop ones, and its challenge to a proxy. */
const notPassedOn = new Set([...hopByHopHeaders, 'proxy-authenticate']);

/** Headers of the client's request never forwarded: hop-by-hop ones, its credentials for a proxy, and `host`. */
const notForwarded = new Set([...hopByHopHeaders, 'proxy-authorization', 'host']);

/** The header names a `Connection` header names (hop-by-hop by its sender's say, RFC 9110 §7.6.1), lower case. */
function namedByConnection(connection: string | string[] | undefined): ReadonlySet<string> | undefined {
  // The usual values name only themselves, hop-by-hop already: nothing more to drop.
  if (connection === undefined || connection === 'keep-alive' || connection === 'close') return undefined;
  const names = String(connection)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : new Set(names);
}

/** The client's headers as forwarded: all but hop-by-hop ones and its proxy credentials, with the upstream's `host`. */
export function forwardedHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  host: string,
): Record<string, string | string[]> {
  const named = namedByConnection(headers.connection);
  const kept: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || notForwarded.has(name) || named?.has(name)) continue;
    kept[name] = value;
  }
  kept.host = host;
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
export function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
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
