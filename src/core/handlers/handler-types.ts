import type { HandlerResponse } from '../types/handler-response.js';
import type { ValidRequest } from '../types/valid-request.js';

export type Handler<Context> = (request: ValidRequest, context: Context) => HandlerResponse | Promise<HandlerResponse>;

/** Handlers by operationId. An operation without one goes to the fallback mocker, if there is one. */
export type HandlerTable<Context> = Partial<Record<string, Handler<Context>>>;
