import { looksLikeCredential, redactedValue } from '../core/http/redact-credentials.js';
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
