import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

/** `2030-12-05` → the start of that day in UTC. */
const dayStart = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * The headers that announce a deprecated operation, derived from the
 * document: `Deprecation` (RFC 9745: `@<epoch seconds>` of the day it became
 * deprecated, `x-deprecated-at`; a date in the past says "deprecated now"),
 * `Sunset` (RFC 8594: the removal date of `x-sunset`)
 * and a `Link` to the operation named by `x-replaced-by` with
 * `rel="successor-version"`.
 */
export function deprecationHeaders(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  basePath: string,
): Record<string, string> {
  if (!operation.deprecated) return {};
  const headers: Record<string, string> = {};
  if (operation.deprecatedAt !== undefined) {
    headers.deprecation = `@${Math.floor(dayStart(operation.deprecatedAt).getTime() / 1000)}`;
  }
  if (operation.sunset !== undefined) headers.sunset = dayStart(operation.sunset).toUTCString();
  const replacement = operation.replacedBy ? compiled.byId.get(operation.replacedBy) : undefined;
  if (replacement) headers.link = `<${basePath}${replacement.pathTemplate}>; rel="successor-version"`;
  return headers;
}
