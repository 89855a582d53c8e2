/**
 * The one catalogue of error codes the mock answers with. Each code has the
 * HTTP status it is sent with; `HttpError` takes its status from here, so a code
 * cannot drift from its status.
 */
export const errorCodes = {
  invalid_parameter: 400,
  invalid_body: 400,
  invalid_json: 400,
  body_required: 400,
  unexpected_body: 400,
  invalid_prefer: 400,
  request_aborted: 400,
  invalid_encoding: 400,
  malformed_request: 400,
  invalid_session: 400,
  invalid_fault: 400,
  /** Admin API: a scenario that cannot serve the document (one of the kit's, whose items name no collection of it). */
  invalid_scenario: 400,
  /** A write whose body refers to an item that does not exist (`categoryId` naming no category). */
  invalid_reference: 400,
  host_required: 400,
  /** Proxy: a path with a dot-segment or an encoded slash, which an upstream could resolve outside the API's base. */
  path_not_forwarded: 400,
  unauthorized: 401,
  /** A page of an origin the mock does not answer (CORS), before anything is read or changed. */
  origin_not_allowed: 403,
  /** A `Host` the mock does not answer to (DNS rebinding), before anything is read or changed. */
  host_not_allowed: 403,
  route_not_found: 404,
  scenario_not_found: 404,
  session_not_found: 404,
  not_a_proxy: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  /** An operation past its removal date (`x-sunset`) by the session's clock. */
  operation_removed: 410,
  /** Admin API: a session already holds as many scheduled faults as it may. */
  too_many_faults: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** An `Expect` the server does not know (only `100-continue` is). */
  expectation_failed: 417,
  /** A client (a key and session, or an address) already has its share of the server's requests in flight. */
  too_many_requests: 429,
  headers_too_large: 431,
  invalid_response: 500,
  id_space_exhausted: 500,
  mock_failed: 500,
  internal_error: 500,
  /** A status injected through POST /__admin/faults: sent with the status the fault names (4xx or 5xx). */
  injected_fault: 500,
  body_already_read: 500,
  /**
   * An operation the kit has no behaviour for (kind `other`) and no fallback mocker (Prism) to answer; or a
   * request's transfer coding the Node server does not implement (`Transfer-Encoding: identity, chunked`).
   */
  not_implemented: 501,
  upstream_unreachable: 502,
  upstream_violation: 502,
  /** Proxy: the upstream broke HTTP (a 1xx other than 100 or 103 to a plain request, a reset mid-answer). */
  upstream_protocol_error: 502,
  /** Proxy: as many upstream requests are in flight and queued as the proxy allows. */
  upstream_busy: 503,
  /** The state file cannot be written, or the Redis store cannot be reached: changes are refused until it can. */
  store_unavailable: 503,
  upstream_timeout: 504,
  store_full: 507,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorCodes;

/**
 * The code of a request for an item its resource does not hold:
 * `<item>_not_found`, named after the document's item schema (`Pet`:
 * `pet_not_found`), sent with 404. The one family of codes derived from the
 * document rather than listed above.
 */
export type NotFoundCode = `${string}_not_found`;

export function notFoundCode(itemName: string): NotFoundCode {
  return `${itemName.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase()}_not_found`;
}

/** The status a code is sent with: the catalogue's, or 404 for a code of the not-found family. */
export function statusOfCode(code: ErrorCode | NotFoundCode): number {
  return Object.hasOwn(errorCodes, code) ? errorCodes[code as ErrorCode] : 404;
}
