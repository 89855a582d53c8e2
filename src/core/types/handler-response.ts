/** What a handler answers: the pipeline validates it against the document, serialises it and sends it. */
export interface HandlerResponse {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value (numbers may be bigints); absent for a response without a body. */
  body?: unknown;
}
