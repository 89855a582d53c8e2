import { HttpError } from '../errors/http-error.js';
import type { HandlerResponse, ValidRequest } from '../handlers/handler-types.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import type { Session } from '../sessions/session.js';
import type { Upstream } from './forward-upstream.js';
import type { Preference } from './read-preference.js';
import type { ResponseCache } from './response-cache.js';

/** What the middle of the pipeline gets once a request has passed every check. */
export interface MiddleInput {
  operation: CompiledOperation;
  request: ValidRequest;
  preference: Preference;
  session: Session;
}

/** An API served under a base path: its document, what answers its operations, and its response cache. */
export interface Mount {
  basePath: string;
  readonly compiled: CompiledDocument;
  /** Headers every response of an operation carries (deprecation). */
  readonly operationHeaders: ReadonlyMap<CompiledOperation, Record<string, string>>;
  /** Answers a valid request: the operation's handler, or the example `Prefer` asked for. */
  middle(input: MiddleInput): Promise<HandlerResponse>;
  readonly cache: ResponseCache;
  /** The kit's own admin API, rather than the API it mocks. */
  admin: boolean;
  /** Set when the mount is the validating proxy: requests go upstream instead of to the handlers. */
  upstream?: Upstream;
}

/**
 * The mount whose base path the request's path is under, and the path
 * below it: `/v1/pets?x` is `/pets` under `/v1`; `/v1x` is under nothing.
 * Anything outside every mount is a JSON 404.
 */
export function selectMount(mounts: readonly Mount[], method: string, path: string): { mount: Mount; path: string } {
  for (const mount of mounts) {
    if (!path.startsWith(mount.basePath)) continue;
    const rest = path.slice(mount.basePath.length);
    if (rest === '') return { mount, path: '/' };
    if (rest[0] === '/') return { mount, path: rest };
  }
  const api = mounts.find((mount) => !mount.admin) ?? mounts[0];
  throw new HttpError(
    'route_not_found',
    `nothing is served at ${method} ${path}; the API is under ${api?.basePath ?? '/v1'}`,
  );
}
