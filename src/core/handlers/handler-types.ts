import type { ActionResult, StoreAction } from '../state/state-store.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { ValidRequest } from '../types/valid-request.js';

/** A handler of the admin API: it answers from the request and its context (which may be read later). */
export type Handler<Context> = (request: ValidRequest, context: Context) => HandlerResponse | Promise<HandlerResponse>;

/** Handlers by operationId. An operation without one goes to the fallback mocker, if there is one. */
export type HandlerTable<Context> = Partial<Record<string, Handler<Context>>>;

/**
 * The behaviour of an operation of a kind the kit serves, in two pure
 * halves around the one call to the shared state: what the request asks of
 * the store, and the answer to what the store did. Neither touches a store,
 * so that a store shared by replicas settles the action in the same round
 * trip as the request's session, fault and clock (see state-store.ts).
 */
export interface ItemHandler {
  /** The store action a valid request asks for. */
  plan(request: ValidRequest): StoreAction;
  /** The response to what the action did; throws an `HttpError` for an item that is not there (404). */
  answer(request: ValidRequest, result: ActionResult): HandlerResponse;
  /**
   * A read whose answer (status, headers and body) is the same for the same
   * request path and query at the same revision of the store: the pipeline
   * caches it there (see response-cache.ts), and can tell, inside the
   * store's call, whether it already holds the answer and the read can be
   * skipped. Leave it out when in doubt.
   */
  sameAtRevision?: boolean;
}

/** Item handlers by operationId. */
export type ItemHandlerTable = Partial<Record<string, ItemHandler>>;
