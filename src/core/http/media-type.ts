/** A Content-Type split into its essence (`type/subtype`, lower case) and its parameters (names lower case). */
export interface MediaType {
  essence: string;
  parameters: Record<string, string>;
}

/**
 * The one parser of media types in the kit (RFC 9110 §8.3.1): `Application/JSON; Charset="UTF-8"`
 * → `{ essence: 'application/json', parameters: { charset: 'UTF-8' } }`.
 */
export function parseMediaType(header: string | undefined): MediaType {
  const [essence = '', ...rest] = (header ?? '').split(';');
  const parameters: Record<string, string> = {};
  for (const part of rest) {
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    const value = part
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name !== '') parameters[name] = value;
  }
  return { essence: essence.trim().toLowerCase(), parameters };
}

/** The `type/subtype` of a Content-Type, lower case, parameters dropped. */
export function mediaTypeEssence(header: string | undefined): string {
  return parseMediaType(header).essence;
}

/** `application/json` and any `application/*+json`, parameters ignored. */
export function isJsonMediaType(header: string | undefined): boolean {
  const essence = mediaTypeEssence(header);
  return essence === 'application/json' || /^application\/[^/]+\+json$/.test(essence);
}
