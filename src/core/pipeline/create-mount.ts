import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import { DocumentError } from '../openapi/document-error.js';
import type { Authenticator } from './authenticate.js';
import { commonHeaders } from './common-headers.js';
import { deprecationHeaders } from './deprecation-headers.js';
import type { RequestPolicy } from './request-policy.js';
import { ResponseCache } from './response-cache.js';
import type { Middle, Mount } from './select-mount.js';

export interface MountOptions {
  basePath: string;
  compile: () => CompiledDocument;
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

/**
 * An API served under a base path (see `Mount`): its document compiled and
 * checked against its handlers (a handler for an operation the document
 * does not have stops start-up), each operation's deprecation headers, and
 * its middle.
 */
export function createMount(options: MountOptions): Mount {
  let prepared: { compiled: CompiledDocument; headers: Map<CompiledOperation, Record<string, string>>; middle: Middle };
  const cache = new ResponseCache();
  const prepare = () => {
    if (prepared) return prepared;
    const compiled = options.compile();
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
    prepared = { compiled, headers, middle: options.middle(compiled, cache) };
    return prepared;
  };
  // A check that fails on the first request would answer 500 to every request instead of stopping start-up.
  if (!options.lazy) prepare();
  return {
    basePath: options.basePath,
    admin: options.admin,
    policy: options.policy,
    authenticate: options.authenticate,
    cache,
    get compiled() {
      return prepare().compiled;
    },
    get operationHeaders() {
      return prepare().headers;
    },
    get middle() {
      return prepare().middle;
    },
  };
}
