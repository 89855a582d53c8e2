import { HttpError } from '../errors/http-error.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';

export interface RouteMatch {
  operation: CompiledOperation;
  /** Path parameters as sent (percent-decoded text). */
  pathParams: Record<string, string>;
}

function matchSegments(operation: CompiledOperation, segments: readonly string[]): Record<string, string> | undefined {
  if (operation.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const expected = operation.segments[index] as string | { param: string };
    const actual = segments[index] as string;
    if (typeof expected === 'string') {
      if (expected !== actual) return undefined;
    } else {
      if (actual === '') return undefined;
      params[expected.param] = actual;
    }
  }
  return params;
}

/** How many literal segments match: OpenAPI says `/pets/mine` wins over `/pets/{petId}`. */
function literalCount(operation: CompiledOperation): number {
  return operation.segments.filter((segment) => typeof segment === 'string').length;
}

/**
 * Finds the operation for a method and a path relative to the base path
 * (`/pets/1` of `/v1/pets/1`). Throws 404 when no path of the document
 * matches, and 405 with `Allow` when the path exists but not with this
 * method. Messages name the path as the client sent it.
 */
export function matchRoute(
  compiled: CompiledDocument,
  method: string,
  pathname: string,
  sent: { basePath: string; path: string },
): RouteMatch {
  const sentPath = sent.path;
  let segments: string[];
  try {
    segments = pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw new HttpError('route_not_found', `the path ${JSON.stringify(sentPath)} is not correctly percent-encoded`);
  }
  const candidates: RouteMatch[] = [];
  for (const operation of compiled.operations) {
    const pathParams = matchSegments(operation, segments);
    if (pathParams) candidates.push({ operation, pathParams });
  }
  if (candidates.length === 0) {
    const known = [...new Set(compiled.operations.map((o) => `${sent.basePath}${o.pathTemplate}`))].join(', ');
    throw new HttpError('route_not_found', `no operation is at ${method} ${sentPath} (paths: ${known})`);
  }
  const best = Math.max(...candidates.map((c) => literalCount(c.operation)));
  const sameTemplate = candidates.filter((c) => literalCount(c.operation) === best);
  const match = sameTemplate.find((c) => c.operation.method === method);
  if (!match) {
    const allowed = sameTemplate.map((c) => c.operation.method);
    throw new HttpError(
      'method_not_allowed',
      `${method} is not allowed on ${sentPath}; allowed: ${allowed.join(', ')}`,
      { headers: { allow: allowed.join(', ') } },
    );
  }
  return match;
}
