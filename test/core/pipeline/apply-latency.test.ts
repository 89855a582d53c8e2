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

  it('waits a fixed latency exactly', async () => {
    const waiting = applyLatency({ min: 200, max: 200 }, () => 0.9);
    expect(await settledAfter(waiting, 199)).toBe(false);
    expect(await settledAfter(waiting, 1)).toBe(true);
  });

  it('draws a latency between min and max from the random source it is given', async () => {
    // 100 + 0.25 × (300 − 100) = 150 ms.
    const waiting = applyLatency({ min: 100, max: 300 }, () => 0.25);
    expect(await settledAfter(waiting, 149)).toBe(false);
    expect(await settledAfter(waiting, 1)).toBe(true);
  });

  it('does not wait, nor set a timer, without a latency or with none to wait', async () => {
    await applyLatency(undefined, () => 0.5);
    await applyLatency({ min: 0, max: 0 }, () => 0.5);
    expect(vi.getTimerCount()).toBe(0);
  });
});
