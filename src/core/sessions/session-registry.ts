import { HttpError } from '../errors/http-error.js';
import type { PlainRequest } from '../http/plain-http.js';
import { chooseSession, defaultSessionName, type SessionChoice } from '../http/session-header.js';
import type { MockLogger } from '../support/mock-logger.js';
import type { Session } from './session.js';

export interface SessionRegistryOptions {
  /** The session of requests without the header. */
  defaultSession: Session;
  /** Makes a new session (it starts from the mock's starting scenario). */
  create(name: string): Session;
  /** Named sessions kept at most besides the default one; the least recently used goes beyond. */
  max: number;
  logger: MockLogger;
}

export type { SessionChoice };

/**
 * The sessions of the mock. A request with `Petstore-Session: NAME` works
 * on that session (a store that shares its scenario's pets until it writes,
 * a journal, faults, latency); without the header, on the default session.
 * Choosing a session by name (`select`) makes nothing: the pipeline makes a
 * session (`session`) only for a request that passed authentication, so a
 * client without a key can neither make sessions nor evict those of keyed
 * clients. At most `max` named sessions are kept: beyond, the least recently
 * used one is dropped (and logged).
 */
export class SessionRegistry {
  readonly max: number;
  readonly #default: Session;
  readonly #create: (name: string) => Session;
  readonly #logger: MockLogger;
  /** Named sessions, the least recently used first (a Map keeps insertion order). */
  #named = new Map<string, Session>();

  constructor(options: SessionRegistryOptions) {
    this.#default = options.defaultSession;
    this.#create = options.create;
    this.max = options.max;
    this.#logger = options.logger;
  }

  get defaultSession(): Session {
    return this.#default;
  }

  /**
   * The session name a request gives, checked but not looked up: nothing is
   * made here. A name that is not one comes back as a 400 naming the header
   * (beside `default`), rather than thrown, so that the pipeline answers it
   * only once the client is authenticated.
   */
  select(request: PlainRequest): SessionChoice {
    return chooseSession(request);
  }

  /** The session of that name if it exists (the default one for `default`), without making it or marking it used. */
  find(name: string): Session | undefined {
    return name === defaultSessionName ? this.#default : this.#named.get(name);
  }

  /** The session of that name, made if need be; `default` is the default session. */
  session(name: string): Session {
    if (name === defaultSessionName) return this.#default;
    const found = this.#named.get(name);
    if (found) {
      this.#named.delete(name);
      this.#named.set(name, found);
      return found;
    }
    if (this.#named.size >= this.max) {
      const [oldest] = this.#named.keys();
      if (oldest !== undefined) {
        // Its journal's entries and its store's items leave the mock's budgets with it.
        this.#named.get(oldest)?.leave();
        this.#named.delete(oldest);
        this.#logger.info({ session: oldest, max: this.max }, 'session evicted, the least recently used');
      }
    }
    const created = this.#create(name);
    this.#named.set(name, created);
    return created;
  }

  /** The default session, then the named ones, the least recently used first. */
  list(): Session[] {
    return [this.#default, ...this.#named.values()];
  }

  has(name: string): boolean {
    return name === defaultSessionName || this.#named.has(name);
  }

  /** Drops a named session; the default session cannot be dropped. */
  drop(name: string): boolean {
    if (name === defaultSessionName) {
      throw new HttpError(
        'invalid_session',
        'the default session cannot be dropped; POST /__admin/reset takes it back to its scenario',
      );
    }
    this.#named.get(name)?.leave();
    return this.#named.delete(name);
  }
}
