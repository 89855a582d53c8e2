import { keyVariants } from './key-variants.js';

export const redactedMarker = '[REDACTED]';

/** Keys shorter than this are redacted only where they stand as a credential (see `createRedactor`). */
export const shortSecretLength = 8;

/** The mock's default key, public: the README, the mock's banner and its pages all print it. */
export const publicDevKey = 'dev-key';

/**
 * What a run says about its key before any request: a warning for a key too
 * short to hide everywhere, but none for the mock's public `dev-key`, which
 * is no secret (output still hides it where it stands as a credential).
 */
export function shortKeyWarning(token: string): string | undefined {
  if (token.length >= shortSecretLength || token === publicDevKey) return undefined;
  return `warning: the API key is shorter than ${shortSecretLength} characters, so output hides it only where it stands as a credential (after Bearer or Basic, after key= or as a quoted value); a longer key is safer`;
}

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

/** The shapes a secret can take in output: as is, URL-encoded, base64, and escaped inside a JSON string. */
function formsOf(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    JSON.stringify(secret).slice(1, -1),
  ];
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
 * (also their URL-encoded, base64 and JSON-escaped forms, in case a deployment
 * echoes one back in another shape). A secret of 8 characters or more is
 * replaced wherever it appears. A shorter one (a key such as `pets` or `127`)
 * would corrupt ordinary output (`GET /pets`, `127.0.0.1`), so it is replaced
 * only where it stands as a credential: after `Bearer`, `Basic`, `key=`,
 * `"token":` and the like, or as a whole quoted value.
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
        ? (text: string) => text.replace(shortFormPattern(form), redactedMarker)
        : (text: string) => text.split(form).join(redactedMarker),
    );
  return (text) => steps.reduce((result, step) => step(result), text);
}

const credentialHeaderNames =
  /authorization|authentication|cookie|token|secret|passw(or)?d|api[-_]?key|(^|-)key$|signature|credential|session-?id|^x-auth/i;

/**
 * Whether a header (from `--header`) is a credential whose value must never be
 * printed: by its name (Authorization, Cookie, *-Token, *-Key, ...), by its value
 * (an auth scheme and a credential), or by the look of its value (16 characters or
 * more of letters and digits mixed, like a generated key).
 */
export function looksLikeCredential(name: string, value: string): boolean {
  if (credentialHeaderNames.test(name)) return true;
  if (/^(bearer|basic|digest|token|negotiate|hmac|aws4-hmac-sha256)\s/i.test(value)) return true;
  return value.length >= 16 && /^[A-Za-z0-9\-._~+/=]+$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/**
 * The secrets of a run: the key, the near-keys the authentication checks send
 * (an echo of one would show most of the key), and the value of every extra
 * header that looks like a credential.
 */
export function secretsOf(token: string, headers: Record<string, string>): string[] {
  const variants = keyVariants(token).flatMap((variant) => (variant.key === undefined ? [] : [variant.key]));
  const credentials = Object.entries(headers).filter(([n, v]) => looksLikeCredential(n, v));
  return [token, ...variants, ...credentials.map(([, v]) => v)];
}

/** `petstore-session: w1, x-api-key: [REDACTED]`: the extra headers as they may be printed. */
export function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${looksLikeCredential(name, value) ? redactedMarker : value}`)
    .join(', ');
}
