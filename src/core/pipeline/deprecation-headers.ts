import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

/**
 * The headers that announce a deprecated operation, derived from the
 * document: `Deprecation` (RFC 9745, `@<epoch seconds>`) and `Sunset`
 * (RFC 8594, an HTTP date) from `x-sunset`, and a `Link` to the operation
 * named by `x-replaced-by` with `rel="successor-version"`.
 */
export function deprecationHeaders(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  basePath: string,
): Record<string, string> {
  if (!operation.deprecated) return {};
  const headers: Record<string, string> = {};
  if (operation.sunset !== undefined) {
    const sunset = new Date(`${operation.sunset}T00:00:00Z`);
    headers.Deprecation = `@${Math.floor(sunset.getTime() / 1000)}`;
    headers.Sunset = sunset.toUTCString();
  }
  const replacement = operation.replacedBy ? compiled.byId.get(operation.replacedBy) : undefined;
  if (replacement) headers.Link = `<${basePath}${replacement.pathTemplate}>; rel="successor-version"`;
  return headers;
}
