import { vi } from 'vitest';

/**
 * Runs `act` with the timers on the test's clock (`setTimeout` faked): a
 * mock in the test's process waits its latency on it, so that the test moves
 * time on by exactly what it means to, instead of measuring durations.
 */
export async function onTestClock<T>(act: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    return await act();
  } finally {
    vi.useRealTimers();
  }
}

/** Lets everything queued run (I/O callbacks, promise chains), without moving the test's clock. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

/** Waits, without moving the clock, until `count` timers are pending: a request has begun its wait. */
export async function untilTimers(count: number): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (vi.getTimerCount() >= count) return;
    await settle();
  }
  throw new Error(`${vi.getTimerCount()} timers pending, never ${count}`);
}

/** A promise with whether it has settled, seen after everything queued has run. */
export function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled(): Promise<boolean> } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return {
    promise,
    async settled() {
      for (let turn = 0; turn < 20; turn++) await settle();
      return done;
    },
  };
}
