import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLatency } from '../../../src/core/pipeline/apply-latency.js';

/** Resolves to whether `promise` has settled once the fake clock has moved `ms` on. */
async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('applyLatency', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the delay the state gave, exactly', async () => {
    const waiting = applyLatency(200);
    if (!waiting) throw new Error('a delay of 200 ms waits');
    expect(await settledAfter(waiting, 199)).toBe(false);
    expect(await settledAfter(waiting, 1)).toBe(true);
  });

  it('does not wait, nor set a timer, for no delay', () => {
    expect(applyLatency(0)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
