import { BoundedMaps } from '../support/bounded-map.js';
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

/** The path's segments, percent-decoded (only where there is something to decode). */
function splitPath(pathname: string, sentPath: string): string[] {
  const segments = pathname.split('/');
  segments.shift();
  if (!pathname.includes('%')) return segments;
  try {
    return segments.map(decodeURIComponent);
  } catch {
    throw new HttpError('route_not_found', `the path ${JSON.stringify(sentPath)} is not correctly percent-encoded`);
  }
}

/**
 * Finds the operation for a method and a path relative to the base path
 * (`/pets/1` of `/v1/pets/1`). Throws 404 when no path of the document
 * matches, and 405 with `Allow` when the path exists but not with this
 * method. Where two templates match, the one with more literal segments
 * wins, as OpenAPI says (`/pets/mine` over `/pets/{petId}`). Messages name
 * the path as the client sent it.
 */
export function matchRoute(
  compiled: CompiledDocument,
  method: string,
  pathname: string,
  sent: { basePath: string; path: string },
): RouteMatch {
  const memo = memos.of(compiled);
  const recent = memo.recent;
  if (recent !== undefined && recent.pathname === pathname && recent.method === method) return recent.found;
  const key = `${method} ${pathname}`;
  const known = memo.get(key);
  if (known) {
    memo.recent = { method, pathname, found: known };
    return known;
  }
  const found = matchAnew(compiled, method, pathname, sent);
  if (key.length <= maxMemoKey) {
    Object.freeze(found.pathParams);
    memo.set(key, Object.freeze(found));
    memo.recent = { method, pathname, found };
  }
  return found;
}

/**
 * The routes matched last, by method and path: clients ask for the same
 * paths again and again. At most 512 a document, the oldest forgotten
 * first, each frozen; a path no operation serves is not kept.
 */
const memos = new BoundedMaps<CompiledDocument, string, RouteMatch, RecentRoute>(512);

/** The route matched last, and the method and path it was matched for. */
interface RecentRoute {
  method: string;
  pathname: string;
  found: RouteMatch;
}
const maxMemoKey = 1024;

function matchAnew(
  compiled: CompiledDocument,
  method: string,
  pathname: string,
  sent: { basePath: string; path: string },
): RouteMatch {
  const segments = splitPath(pathname, sent.path);
  let best = -1;
  let found: RouteMatch | undefined;
  let allowed: string[] = [];
  for (const operation of compiled.operations) {
    const pathParams = matchSegments(operation, segments);
    if (!pathParams || operation.literalSegments < best) continue;
    if (operation.literalSegments > best) {
      best = operation.literalSegments;
      found = undefined;
      allowed = [];
    }
    allowed.push(operation.method);
    if (!found && operation.method === method) found = { operation, pathParams };
  }
  return found ?? noOperation(compiled, method, best < 0 ? undefined : allowed, sent);
}

/**
 * The refusal of a path no operation serves: 404, naming the document's
 * paths, or, where its path exists with other methods (`allowed`), 405 with `Allow`.
 */
function noOperation(
  compiled: CompiledDocument,
  method: string,
  allowed: readonly string[] | undefined,
  sent: { basePath: string; path: string },
): never {
  if (!allowed) {
    const known = [...new Set(compiled.operations.map((o) => `${sent.basePath}${o.pathTemplate}`))].join(', ');
    throw new HttpError('route_not_found', `no operation is at ${method} ${sent.path} (paths: ${known})`);
  }
  throw new HttpError(
    'method_not_allowed',
    `${method} is not allowed on ${sent.path}; allowed: ${allowed.join(', ')}`,
    {
      headers: { allow: allowed.join(', ') },
    },
  );
}
