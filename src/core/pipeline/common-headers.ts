/** Headers every response carries: no sniffing, no caching of a stateful mock's answers. */
export const commonHeaders: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});
