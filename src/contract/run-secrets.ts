import { looksLikeCredential, redactedValue, shortSecretLength } from '../core/http/redact-credentials.js';
import { keyVariants } from './key-variants.js';

/**
 * The secrets of a run: the key, the near-keys the authentication checks send
 * (an echo of one would show most of the key), and the value of every extra
 * header that looks like a credential (see redact-credentials.ts, which
 * redacts them).
 */
export function secretsOf(token: string, headers: Record<string, string>): string[] {
  const variants = keyVariants(token).flatMap((variant) => (variant.key === undefined ? [] : [variant.key]));
  const credentials = Object.entries(headers).filter(([n, v]) => looksLikeCredential(n, v));
  return [token, ...variants, ...credentials.map(([, v]) => v)];
}

/** `petstore-session: w1, x-api-key: [redacted]`: the extra headers as they may be printed. */
export function describeHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${looksLikeCredential(name, value) ? redactedValue : value}`)
    .join(', ');
}

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
