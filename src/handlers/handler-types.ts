import type { ApiRequest } from '../pipeline/validate-request.js';

/** What every handler returns; the pipeline validates it against the document and sends it. */
export interface HandlerResult {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler<Context> = (request: ApiRequest, context: Context) => HandlerResult | Promise<HandlerResult>;

/** Handlers by operationId. An operation without one is answered by the fallback mocker. */
export type HandlerTable<Context> = Partial<Record<string, Handler<Context>>>;
