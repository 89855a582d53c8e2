/**
 * A store URL as the kit may print it: scheme, host, port and database,
 * with the user name but never the password (`redis://:secret@host:6379/2`
 * prints as `redis://host:6379/2`). What cannot be read as a URL prints as
 * `(a store URL that is not one)`, since it may hold a password anywhere.
 */
export function redactedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(a store URL that is not one)';
  }
  const user = parsed.username ? `${parsed.username}@` : '';
  const path = parsed.pathname === '/' ? '' : parsed.pathname;
  return `${parsed.protocol}//${user}${parsed.host}${path}`;
}

/** The password a store URL holds, as written and decoded (none when it has none): what every message is scrubbed of. */
export function secretsOf(url: string): string[] {
  try {
    const { password } = new URL(url);
    if (password === '') return [];
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {
      // Kept as written.
    }
    return decoded === password ? [password] : [password, decoded];
  } catch {
    // Not a URL: any part of it may be a secret, and the connection never uses it.
    return [];
  }
}

/** A text with every occurrence of the secrets replaced by `[redacted]`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('[redacted]');
  return out;
}
