import type { PlainRequest } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { SerialisedResponse } from './serialise-response.js';

/** A remembered answer and the operation it answered (a path and query name one operation a method). */
interface Remembered {
  operation: CompiledOperation;
  response: SerialisedResponse;
}

/** The answer found or remembered last, and what it was found by. */
interface Recent extends Remembered {
  revision: number;
  path: string;
  query: string;
}

/**
 * The longest path and query an answer is remembered for, in characters: the
 * document reads `/pets/0001` as `/pets/1`, so a client could otherwise make
 * every entry as long as its headers allow. Longer ones are answered as always.
 */
export const maxRememberedText = 1024;

/**
 * Serialised, validated answers to reads, by the store's revision, then the
 * request's path and query as sent. A read's answer is the same for the same
 * request at the same revision (a revision names one content across every
 * session's store, so any write makes every earlier answer unreachable); the
 * first answer is validated and serialised, and the later ones reuse those
 * bytes. The request's own text is the key, looked up in maps the texts the
 * adapter already cut from the URL: no key is built a request (a string built
 * and hashed each request cost about a tenth of a read's JavaScript). Two
 * texts the document reads alike (`?a=1&b=2` and `?b=2&a=1`) are two entries;
 * a query the operation does not declare is refused before any answer, so a
 * client cannot make one entry a request with a parameter it invents.
 * Bounded: past `capacity` answers it starts afresh, and it remembers none
 * for a path and query longer than `maxRememberedText`. The answer found
 * last is compared first: clients ask for the same page again and again, and
 * comparing the two texts costs less than hashing the query for the maps
 * (a request's texts are new strings, whose hash is not known yet).
 */
export class ResponseCache {
  readonly #capacity: number;
  #size = 0;
  #byRevision = new Map<number, Map<string, Map<string, Remembered>>>();
  #recent: Recent | undefined;

  constructor(capacity = 1024) {
    this.#capacity = capacity;
  }

  /** The answer to `request` of `operation` at `revision`, when one was remembered. */
  get(operation: CompiledOperation, revision: number, request: PlainRequest): SerialisedResponse | undefined {
    const recent = this.#recent;
    if (
      recent !== undefined &&
      recent.revision === revision &&
      recent.path === request.path &&
      recent.query === request.query
    ) {
      return recent.operation === operation ? recent.response : undefined;
    }
    const remembered = this.#byRevision.get(revision)?.get(request.path)?.get(request.query);
    if (remembered === undefined) return undefined;
    this.#recent = { ...remembered, revision, path: request.path, query: request.query };
    return remembered.operation === operation ? remembered.response : undefined;
  }

  remember(operation: CompiledOperation, revision: number, request: PlainRequest, response: SerialisedResponse): void {
    if (request.path.length + request.query.length > maxRememberedText) return;
    if (this.#size >= this.#capacity) {
      this.#byRevision.clear();
      this.#size = 0;
    }
    let byPath = this.#byRevision.get(revision);
    if (!byPath) this.#byRevision.set(revision, (byPath = new Map()));
    let byQuery = byPath.get(request.path);
    if (!byQuery) byPath.set(request.path, (byQuery = new Map()));
    if (!byQuery.has(request.query)) this.#size++;
    byQuery.set(request.query, { operation, response });
    this.#recent = { operation, response, revision, path: request.path, query: request.query };
  }

  /** How many answers it holds. */
  get size(): number {
    return this.#size;
  }
}
