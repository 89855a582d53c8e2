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
  const text = header ?? '';
  // Read with indexOf rather than a destructured split: this runs for every request with a body.
  let end = text.indexOf(';');
  const essence = (end === -1 ? text : text.slice(0, end)).trim().toLowerCase();
  const parameters: Record<string, string> = {};
  while (end !== -1) {
    const start = end + 1;
    end = text.indexOf(';', start);
    const part = end === -1 ? text.slice(start) : text.slice(start, end);
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    const value = part
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name !== '') parameters[name] = value;
  }
  return { essence, parameters };
}

/** The `type/subtype` of a Content-Type, lower case, parameters dropped. */
export function mediaTypeEssence(header: string | undefined): string {
  // Every answer of the mock's own is judged as this one: nothing to parse (or compile, on a first request).
  if (header === 'application/json') return header;
  return parseMediaType(header).essence;
}

/** `application/json` and any `application/*+json`, parameters ignored. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (header === 'application/json') return true;
  const essence = mediaTypeEssence(header);
  return essence === 'application/json' || /^application\/[^/]+\+json$/.test(essence);
}
