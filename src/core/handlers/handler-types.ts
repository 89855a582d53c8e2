/** A request that conforms to its operation: parameters typed (defaults applied) and the body parsed exactly. */
export interface ValidRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body: unknown;
}

/** What a handler answers: the pipeline validates it against the document, serialises it and sends it. */
export interface HandlerResponse {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value (numbers may be bigints); absent for a response without a body. */
  body?: unknown;
  /**
   * A key that determines this exact response (status, headers and body), such
   * as the store's revision plus the query. The pipeline then validates and
   * serialises the first response under a key and sends the same bytes for
   * the next ones. Leave it out when in doubt.
   */
  cacheKey?: string;
}

export type Handler<Context> = (request: ValidRequest, context: Context) => HandlerResponse | Promise<HandlerResponse>;

/** Handlers by operationId. An operation without one goes to the fallback mocker, if there is one. */
export type HandlerTable<Context> = Partial<Record<string, Handler<Context>>>;
