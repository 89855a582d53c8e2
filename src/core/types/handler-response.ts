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
