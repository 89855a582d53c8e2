/**
 * The one place that decides, from its name alone, whether a header or a
 * query parameter carries a credential, and redacts its value. Everything the
 * kit writes (the journal, the request log, the proxy's messages, its report
 * and JUnit file) goes through here, so a credential named one way is hidden
 * everywhere or nowhere.
 */

/** What a redacted value is replaced with. */
export const redactedValue = '[redacted]';

/** Headers that are credentials whatever they hold. */
const credentialHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-auth-token',
  'api-key',
  'x-api-key',
]);

/**
 * Words that mark a name as a credential wherever they appear in it:
 * `X-Upstream-Token`, `client_secret`, `X-Amz-Signature`. `auth` but not
 * `author`; `api-key`, `api_key` and `apikey`.
 */
const credentialWords = /token|secret|passw(?:or)?d|api[-_]?key|auth(?!or)|credential|signature|cookie|jwt/i;

/** A name that ends in a `key` of its own: `X-Functions-Key`, `access_key`, `private-key`. */
const keySuffix = /(?:^|[-_.])key$/i;

/** Query parameters that are credentials although their names are ordinary words (signed URLs, OAuth, sessions). */
const credentialParameters = new Set([
  'sig',
  'code',
  'key',
  'pwd',
  'pass',
  'session',
  'session_id',
  'sessionid',
  'sid',
  'jsessionid',
  'phpsessid',
  'x-amz-credential',
  'x-amz-signature',
  'x-amz-security-token',
  'x-goog-credential',
  'x-goog-signature',
]);

/** Names that look like a credential's but name an ordinary value. */
const notCredentials = new Set(['idempotency-key', 'sec-websocket-key']);

/** Whether a header of that name carries a credential (`Petstore-Session`, `X-Request-Id` do not). */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (notCredentials.has(lower)) return false;
  return credentialHeaders.has(lower) || credentialWords.test(lower) || keySuffix.test(lower);
}

/** Whether a query parameter of that name (decoded) carries a credential (`limit`, `status` do not). */
export function isCredentialParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return credentialParameters.has(lower) || credentialWords.test(lower) || keySuffix.test(lower);
}

/**
 * The headers with every credential's value redacted: `Bearer abc` becomes
 * `Bearer [redacted]` (the scheme says how the client authenticated, which
 * is worth seeing), anything else `[redacted]`. Undefined values are dropped.
 */
export function redactHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const redacted: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (!isCredentialHeader(name)) {
      redacted[name] = value;
      continue;
    }
    const scheme = typeof value === 'string' ? /^([A-Za-z][\w-]*)\s/.exec(value)?.[1] : undefined;
    redacted[name] = name.toLowerCase() === 'authorization' && scheme ? `${scheme} ${redactedValue}` : redactedValue;
  }
  return redacted;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * A query string (without its `?`) with the value of every credential
 * parameter replaced by `[redacted]`; names, order and every other pair stay
 * exactly as sent. `a=1&token=abc&sig` -> `a=1&token=[redacted]&sig`.
 */
export function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      return isCredentialParameter(decodeName(name)) ? `${name}=${redactedValue}` : pair;
    })
    .join('&');
}

/**
 * A URL or a request target (`/v1/pets?token=abc`) with its credentials
 * redacted: the values of credential parameters in the query, and the
 * password of a `user:password@` part. Path and fragment are kept.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const question = beforeHash.indexOf('?');
  let target = question === -1 ? beforeHash : beforeHash.slice(0, question);
  target = target.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, `$1:${redactedValue}@`);
  const query = question === -1 ? undefined : redactQuery(beforeHash.slice(question + 1));
  return `${target}${query === undefined ? '' : `?${query}`}${fragment}`;
}
