/**
 * Waits the latency the session's state gave the request (see
 * `SettledRequest.delayMs`), after the state call: a write lands before the
 * delay, as a slow network's answer does. Nothing is waited, and no timer
 * set, for 0.
 */
export function applyLatency(delayMs: number): Promise<void> | undefined {
  if (delayMs <= 0) return undefined;
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}
