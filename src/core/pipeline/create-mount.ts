import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { DocumentError } from '../openapi/document-error.js';
import type { Authenticator } from './authenticate.js';
import { commonHeaders } from './common-headers.js';
import { deprecationHeaders } from './deprecation-headers.js';
import type { RequestPolicy } from './request-policy.js';
import { ResponseCache } from './response-cache.js';
import type { Middle, Mount } from './select-mount.js';
import type { Awaitable } from '../types/awaitable.js';

export interface MountOptions {
  basePath: string;
  /**
   * Its document, compiled. A lazy mount's may come later, as a promise (the admin API's, whose template is
   * imported on its first request): the pipeline waits on the mount's `loading` before it reads its parts.
   */
  compile: () => Awaitable<CompiledDocument>;
  /** The operations with a handler, each checked against the document. */
  handled: readonly string[];
  policy: RequestPolicy;
  authenticate: Authenticator;
  /** What answers the mount's operations, made once its document is compiled; `cache` is the mount's answers. */
  middle: (compiled: CompiledDocument, cache: ResponseCache) => Middle;
  admin: boolean;
  /** Compile and check on the first request rather than now (the admin API: the kit's own, fixed document). */
  lazy: boolean;
}

/** A mount's parts, once its document is compiled. */
interface Prepared {
  compiled: CompiledDocument;
  headers: Map<CompiledOperation, Record<string, string>>;
  middle: Middle;
}

/**
 * An API served under a base path (see `Mount`): its document compiled and
 * checked against its handlers (a handler for an operation the document
 * does not have stops start-up), each operation's deprecation headers, and
 * its middle.
 */
export function createMount(options: MountOptions): Mount {
  const cache = new ResponseCache();
  const prepare = (compiled: CompiledDocument): Prepared => {
    for (const operationId of options.handled) {
      if (!compiled.byId.has(operationId)) {
        throw new DocumentError(
          `${compiled.source}: a handler exists for '${operationId}', but no operation has that id`,
        );
      }
    }
    const headers = new Map(
      compiled.operations.map((operation) => [
        operation,
        Object.freeze({ ...commonHeaders, ...deprecationHeaders(compiled, operation, options.basePath) }),
      ]),
    );
    return { compiled, headers, middle: options.middle(compiled, cache) };
  };
  const shared = {
    basePath: options.basePath,
    admin: options.admin,
    policy: options.policy,
    authenticate: options.authenticate,
    cache,
  };
  if (!options.lazy) {
    const compiled = options.compile();
    if (compiled instanceof Promise) throw new TypeError(`the mount at ${options.basePath} needs its document now`);
    // A check that fails on the first request would answer 500 to every request instead of stopping start-up.
    // Prepared now, its parts are plain fields: a request reads them with no getter to call (or compile).
    const { headers, middle } = prepare(compiled);
    return { ...shared, loading: undefined, compiled, operationHeaders: headers, middle };
  }
  let prepared: Prepared | undefined;
  let loading: Promise<void> | undefined;
  /** Prepares the mount at once where its document is there; otherwise the promise of it, until it settles. */
  const load = (): Promise<void> | undefined => {
    if (prepared || loading) return loading;
    const compiling = options.compile();
    if (!(compiling instanceof Promise)) {
      prepared = prepare(compiling);
      return undefined;
    }
    const attempt = compiling.then((compiled) => {
      loading = undefined;
      prepared = prepare(compiled);
    });
    // A load that failed is tried again by the next request (the one that waited on it is answered 500).
    attempt.then(undefined, () => {
      if (loading === attempt) loading = undefined;
    });
    loading = attempt;
    return attempt;
  };
  const parts = (): Prepared => {
    if (!load() && prepared) return prepared;
    // The pipeline waits for `loading` before it reads a part: reaching here is the kit's bug.
    throw new Error(`the document of the mount at ${options.basePath} was read before it was loaded`);
  };
  return {
    ...shared,
    get loading() {
      return load();
    },
    get compiled() {
      return parts().compiled;
    },
    get operationHeaders() {
      return parts().headers;
    },
    get middle() {
      return parts().middle;
    },
  };
}
