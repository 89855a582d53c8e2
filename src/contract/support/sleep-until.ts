/**
 * Waits until `performance.now()` has reached `at`. A timer alone may fire
 * early by as long as the event loop's turn that set it had already run (its
 * clock is read once a turn), which on a busy machine is milliseconds: a read
 * meant to come past a settle window would then be sent within it, and prove
 * nothing.
 */
export async function sleepUntil(at: number): Promise<void> {
  for (let left = at - performance.now(); left > 0; left = at - performance.now()) {
    await new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}
