/** A request that conforms to its operation: parameters typed (defaults applied) and the body parsed exactly. */
export interface ValidRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body: unknown;
}
