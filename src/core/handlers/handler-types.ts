import type { ApiRequest } from '../pipeline/validate-request.js';

/** What every handler returns; the pipeline validates it against the document and sends it. */
export interface HandlerResult {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * A key that determines this exact response (status, headers and body), such
   * as the store's version plus the query. The pipeline then validates and
   * serialises the first response under a key and sends the same bytes for
   * the next ones. Leave it out when in doubt.
   */
  cacheKey?: string;
}

export type Handler<Context> = (request: ApiRequest, context: Context) => HandlerResult | Promise<HandlerResult>;

/** Handlers by operationId. An operation without one is answered by the fallback mocker. */
export type HandlerTable<Context> = Partial<Record<string, Handler<Context>>>;
