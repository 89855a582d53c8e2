/** The wall clock's reading (`Date.now()`) at the last anchor, and the monotonic clock's (`performance.now()`) then. */
let anchorWall = 0;
let anchorMonotonic = Number.NEGATIVE_INFINITY;
/** How long an anchor serves: the wall clock is read again after it, so that a clock set or slewed is followed. */
const anchorMs = 1_000;

/**
 * The wall-clock time, in epoch ms, of a moment of the monotonic clock
 * (`performance.now()`, which every request reads for its duration): the
 * wall clock is read at most once a second, not for every request. Under
 * load a request's own `Date.now()` cost the proxy most of a microsecond,
 * its code and data gone from the caches since the request before.
 * Within a second of a clock being set, times may still follow the old setting.
 */
export function wallClockAt(monotonic: number): number {
  if (monotonic - anchorMonotonic >= anchorMs || monotonic < anchorMonotonic - anchorMs) {
    anchorWall = Date.now();
    anchorMonotonic = performance.now();
  }
  return Math.floor(anchorWall + (monotonic - anchorMonotonic));
}
