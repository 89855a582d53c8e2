import { HttpError } from '../errors/http-error.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { PlainRequest, PlainResponse } from '../http/plain-http.js';
import type { ClassifiedRequest } from '../oracle/classify-request.js';
import type { Finding } from '../oracle/finding.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
// eslint-disable-next-line no-restricted-imports -- until the pipeline reads sessions through the state port
import type { Session } from '../sessions/session.js';
import type { Authenticator } from './authenticate.js';
import type { RequestPolicy } from './request-policy.js';
import type { ResponseCache } from './response-cache.js';

/** What the middle of the pipeline gets once a request has met every check. */
export interface MiddleInput {
  /** The request's operation; undefined only where the policy lets an unknown route through (the proxy). */
  operation: CompiledOperation | undefined;
  request: PlainRequest;
  /** The body as sent, Content-Encoding kept. */
  sent: Uint8Array | undefined;
  /** The request as the document sees it (typed when valid); undefined for an unknown route or an undecodable body. */
  classified: ClassifiedRequest | undefined;
  session: Session;
  /** Where the middle notes what it finds (the proxy: the upstream's answer, judged). */
  findings: Finding[];
}

/**
 * What the middle answered: a value for the pipeline to judge and serialise
 * (the handlers, and every Error body), or an answer already judged and
 * passed on as it came, bytes and all (the upstream's, through the proxy).
 */
export type Answer =
  { kind: 'handled'; response: HandlerResponse } | { kind: 'forwarded'; response: PlainResponse; body: unknown };

/**
 * An API served under a base path: its document, how it treats a problem
 * with a request, who checks keys, and what answers its operations. The
 * mock's API and admin API, and the proxy's API, are each one.
 */
export interface Mount {
  basePath: string;
  readonly compiled: CompiledDocument;
  /** Headers every response of an operation carries (deprecation). */
  readonly operationHeaders: ReadonlyMap<CompiledOperation, Record<string, string>>;
  /** Refuse a problem with a request, or report it and let the request through. */
  policy: RequestPolicy;
  /** Checks the key of a secured operation (the proxy leaves keys to the upstream: it checks nothing). */
  authenticate: Authenticator;
  /** Answers the request: the operation's handler, or the upstream. */
  middle(input: MiddleInput): Promise<Answer>;
  readonly cache: ResponseCache;
  /** The kit's own admin API, rather than the API it mocks. */
  admin: boolean;
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
