import { HttpError } from '../errors/http-error.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { Awaitable } from '../types/awaitable.js';
import type { PlainRequest, PlainResponse } from '../http/plain-http.js';
import type { ClassifiedRequest } from '../oracle/classify-request.js';
import type { Finding } from '../oracle/finding.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import type { SettledRequest, StoreAction } from '../state/state-store.js';
import type { Authenticator } from './authenticate.js';
import type { Preference } from './read-preference.js';
import type { RequestPolicy } from './request-policy.js';
import type { ResponseCache } from './response-cache.js';
import type { SerialisedResponse } from './serialise-response.js';

/** What the middle of the pipeline gets once a request has met every check. */
export interface MiddleInput {
  /** The request's operation; undefined only where the policy lets an unknown route through (the proxy). */
  operation: CompiledOperation | undefined;
  request: PlainRequest;
  /** The body as sent, Content-Encoding kept. */
  sent: Uint8Array | undefined;
  /** The request as the document sees it (typed when valid); undefined for an unknown route or an undecodable body. */
  classified: ClassifiedRequest | undefined;
  /** Where the middle notes what it finds (the proxy: the upstream's answer, judged). */
  findings: Finding[];
}

/**
 * What the middle needs of the shared state, planned before the state is
 * asked: the store action of the operation's handler, and the sunset the
 * session's clock is checked against. `refusal` is a problem of the plan
 * itself (a `Prefer` the operation cannot honour), answered only if the
 * sunset does not answer first.
 */
export interface Plan {
  action: StoreAction | undefined;
  sunset: number | undefined;
  refusal: HttpError | undefined;
  /** What `Prefer: code=…` asked for, read once. */
  preference: Preference | undefined;
  /** The answer the mount's cache held when the store's call found the read already answered (see `AnsweredAt`). */
  cached?: SerialisedResponse;
}

/** A plan that asks nothing of the state: the admin API's, the proxy's, an example's. */
export const noPlan: Plan = Object.freeze({
  action: undefined,
  sunset: undefined,
  refusal: undefined,
  preference: undefined,
});

/**
 * What the middle answered: a value for the pipeline to judge and serialise
 * (the handlers, and every Error body), or an answer already judged and
 * passed on as it came, bytes and all (the upstream's, through the proxy).
 */
export type Answer =
  /**
   * `revision`: the answer is a read's at that revision of the store, the same
   * for the same request there (`ItemHandler.sameAtRevision`): judged and
   * serialised once, then sent from the mount's cache.
   */
  | { kind: 'handled'; response: HandlerResponse; revision?: number }
  | { kind: 'forwarded'; response: PlainResponse; body: unknown }
  /** A read's answer at the store's revision, judged and serialised when it was first given: sent as it is. */
  | { kind: 'cached'; response: SerialisedResponse };

/**
 * What answers a mount's requests, in two halves around the one call to
 * the shared state: the plan (what the request asks of the state), then the
 * answer, given what the state said (the handler's answer to its store
 * action, an example, the fallback mocker's, the upstream's, an admin
 * operation's).
 */
export interface Middle {
  plan(input: MiddleInput): Plan;
  answer(input: MiddleInput, plan: Plan, settled: SettledRequest): Awaitable<Answer>;
}

/**
 * An API served under a base path: its document, how it treats a problem
 * with a request, who checks keys, and what answers its operations. The
 * mock's API and admin API, and the proxy's API, are each one.
 */
export interface Mount {
  basePath: string;
  /**
   * While its document is still to come (the admin API's, whose template is imported on its first
   * request), the promise of it, started by this read: the pipeline waits on it before it reads
   * `compiled`, `operationHeaders` or `middle`. Undefined once they are there.
   */
  readonly loading: Promise<void> | undefined;
  readonly compiled: CompiledDocument;
  /** Headers every response of an operation carries: the common ones (`common-headers.ts`), then deprecation's. */
  readonly operationHeaders: ReadonlyMap<CompiledOperation, Record<string, string>>;
  /** Refuse a problem with a request, or report it and let the request through. */
  policy: RequestPolicy;
  /** Checks the key of a secured operation (the proxy leaves keys to the upstream: it checks nothing). */
  authenticate: Authenticator;
  /** Answers the request: the operation's handler, or the upstream. */
  readonly middle: Middle;
  readonly cache: ResponseCache;
  /** The kit's own admin API, rather than the API it mocks. */
  admin: boolean;
}

/** A path under a mount: the mount, and the path below its base path. */
export interface MountedPath {
  readonly mount: Mount;
  readonly path: string;
}

/**
 * The path asked for last, under which mounts, and what was found: clients
 * repeat the same path, and comparing it costs less than cutting it again.
 */
let recent: { mounts: readonly Mount[]; path: string; found: MountedPath } | undefined;
/** The longest path kept as the last one (a path is held until the next request's). */
const maxRecentPath = 1024;

/**
 * The mount whose base path the request's path is under, and the path
 * below it: `/v1/pets?x` is `/pets` under `/v1`; `/v1x` is under nothing.
 * Anything outside every mount is a JSON 404.
 */
export function selectMount(mounts: readonly Mount[], method: string, path: string): MountedPath {
  const last = recent;
  if (last !== undefined && last.path === path && last.mounts === mounts) return last.found;
  for (const mount of mounts) {
    if (!path.startsWith(mount.basePath)) continue;
    const rest = path.slice(mount.basePath.length);
    if (rest !== '' && rest[0] !== '/') continue;
    const found: MountedPath = Object.freeze({ mount, path: rest === '' ? '/' : rest });
    if (path.length <= maxRecentPath) recent = { mounts, path, found };
    return found;
  }
  return nothingServed(mounts, method, path);
}

/** The 404 of a path under no mount, naming where the API is. */
function nothingServed(mounts: readonly Mount[], method: string, path: string): never {
  const api = mounts.find((mount) => !mount.admin) ?? mounts[0];
  throw new HttpError(
    'route_not_found',
    `nothing is served at ${method} ${path}; the API is under ${api?.basePath ?? '/v1'}`,
  );
}
