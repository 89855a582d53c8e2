/**
 * The one place that recognises credentials and redacts them, with one
 * marker: a header or a query parameter by its name, a header given on the
 * command line by its name or the look of its value, and the secrets a
 * request or a run carried wherever they show in a text. Everything the kit
 * writes (the journal, the request log, the proxy's findings, its report and
 * JUnit file, the contract suite's and the Dredd runner's output) goes through
 * here, so a credential named one way is hidden everywhere or nowhere.
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
 * `author`; `api-key`, `api_key` and `apikey`; `X-Session-Id` (but not `Petstore-Session`,
 * which names a session of the mock and is no secret).
 */
const credentialWords =
  /token|secret|passw(?:or)?d|api[-_]?key|auth(?!or)|credential|signature|cookie|jwt|session[-_]?id/i;

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

/**
 * Whether a header (given with `--header`) is a credential whose value must
 * never be printed: by its name (see `isCredentialHeader`), by its value (an
 * auth scheme and a credential), or by the look of its value (16 characters
 * or more of letters and digits mixed, like a generated key).
 */
export function looksLikeCredential(name: string, value: string): boolean {
  if (isCredentialHeader(name)) return true;
  if (/^(bearer|basic|digest|token|negotiate|hmac|aws4-hmac-sha256)\s/i.test(value)) return true;
  return value.length >= 16 && /^[A-Za-z0-9\-._~+/=]+$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/**
 * The credentials a request carried in its credential headers, whole and
 * without their scheme (`Bearer abc`: both `Bearer abc` and `abc`): what an
 * upstream that echoes one must not get into a report.
 */
export function credentialValues(headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const found = new Set<string>();
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !isCredentialHeader(name)) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      const whole = text.trim();
      if (whole !== '') found.add(whole);
      const credential = whole.split(/\s+/)[1];
      if (credential) found.add(credential);
    }
  }
  return [...found];
}

/** Secrets shorter than this are redacted only where they stand as a credential (see `createRedactor`). */
export const shortSecretLength = 8;

/** Characters a credential can be made of (RFC 6750 b64token, and % for its URL-encoded form). */
const credentialChars = 'A-Za-z0-9\\-._~+/=%';

/** Words after which a short secret is taken to stand as a credential. */
const credentialContexts = [
  'bearer',
  'basic',
  'digest',
  'token',
  'apikey',
  'api-key',
  'api_key',
  'key',
  'password',
  'secret',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A word as a case-insensitive pattern, without making the whole expression case-insensitive. */
function anyCase(word: string): string {
  return [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegExp(c))).join('');
}

/** A text's UTF-8 bytes in base64, without Node's Buffer (the core runs in a browser too). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The shapes a secret can take in output: as is, URL-encoded, base64, and escaped inside a JSON string. */
function formsOf(secret: string): string[] {
  return [secret, encodeURIComponent(secret), base64(secret), JSON.stringify(secret).slice(1, -1)];
}

function shortFormPattern(form: string): RegExp {
  const context = `(?:${credentialContexts.map(anyCase).join('|')})`;
  const body = escapeRegExp(form);
  const notMore = `(?![${credentialChars}])`;
  return new RegExp(
    [
      // After a scheme or a key word: `Bearer pets`, `"key":"pets"`, `token=pets`.
      `(?<=(?<![${credentialChars}])${context}["']?\\s*[:=]?\\s*["']?)${body}${notMore}`,
      // A whole quoted value: `"pets"`.
      `(?<=["'])${body}(?=["'])`,
      // The whole text.
      `^${body}$`,
    ].join('|'),
    'g',
  );
}

/**
 * Returns a function that replaces every occurrence of the secrets in a text
 * with `[redacted]` (also their URL-encoded, base64 and JSON-escaped forms, in
 * case a deployment echoes one back in another shape). A secret of 8
 * characters or more is replaced wherever it appears. A shorter one (a key
 * such as `pets` or `127`) would corrupt ordinary output (`GET /pets`,
 * `127.0.0.1`), so it is replaced only where it stands as a credential: after
 * `Bearer`, `Basic`, `key=`, `"token":` and the like, or as a whole quoted value.
 */
export function createRedactor(secrets: string | readonly string[]): (text: string) => string {
  const forms = new Map<string, boolean>();
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (secret === '') continue;
    const short = secret.length < shortSecretLength;
    for (const form of formsOf(secret)) forms.set(form, short && (forms.get(form) ?? true));
  }
  const steps = [...forms]
    .sort(([a], [b]) => b.length - a.length)
    .map(([form, short]) =>
      short
        ? (text: string) => text.replace(shortFormPattern(form), redactedValue)
        : (text: string) => text.split(form).join(redactedValue),
    );
  return (text) => steps.reduce((result, step) => step(result), text);
}
