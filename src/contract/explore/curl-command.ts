import { stringifyJson } from '../../core/json/exact-json.js';
import type { ContractRequest } from '../http-client.js';

/** A text as one shell word: single-quoted, each `'` written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Characters a URL path and query may hold that need no quoting inside double quotes. */
const plainUrl = /^[A-Za-z0-9/?&=%._~+-]*$/;

/**
 * The curl command that sends a request of the suite again, exactly: the
 * base URL as `$BASE` and the key as `$CONTRACT_TOKEN` (never the key
 * itself), the headers the suite sends, and the body as the exact JSON text
 * sent (ids beyond 2^53 and `7.0` written as they were).
 */
export function curlCommand(request: ContractRequest, extraHeaders: Record<string, string> = {}): string {
  const query = new URLSearchParams(request.query ?? {}).toString();
  const target = `${request.path}${query ? `?${query}` : ''}`;
  const parts = ['curl'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  parts.push(plainUrl.test(target) ? `"$BASE${target}"` : `"$BASE"${shellQuote(target)}`);
  const auth = request.auth ?? { kind: 'token' };
  if (auth.kind === 'token') parts.push('-H', '"Authorization: Bearer $CONTRACT_TOKEN"');
  if (auth.kind === 'header') parts.push('-H', shellQuote(`Authorization: ${auth.value}`));
  parts.push('-H', shellQuote('Accept: application/json'));
  for (const [name, value] of Object.entries(extraHeaders)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) {
    const text = 'raw' in request.body ? request.body.raw : stringifyJson(request.body.json);
    parts.push('-H', shellQuote('Content-Type: application/json'));
    // -d reads a file for a text starting with @; --data-raw never does.
    parts.push(text.startsWith('@') ? '--data-raw' : '-d', shellQuote(text));
  }
  return parts.join(' ');
}
