import { describe, expect, it } from 'vitest';
import { DeadlineQueue } from '../../src/proxy/deadline-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A target that records when it expired, in ms after `start`. */
function target(start: number, expired: Array<[string, number]>, name: string) {
  return { expire: () => expired.push([name, performance.now() - start]) };
}

describe('DeadlineQueue', () => {
  it('expires each deadline once its duration has passed, in the order they were set, and never a cancelled one', async () => {
    const queue = new DeadlineQueue(40);
    const start = performance.now();
    const expired: Array<[string, number]> = [];
    queue.add(target(start, expired, 'first'));
    const cancelled = queue.add(target(start, expired, 'cancelled'));
    await sleep(15);
    queue.add(target(start, expired, 'later'));
    cancelled.cancel();
    await sleep(100);
    expect(expired.map(([name]) => name)).toEqual(['first', 'later']);
    const [[, first], [, later]] = expired as [[string, number], [string, number]];
    expect(first).toBeGreaterThanOrEqual(39);
    // Set 15 ms in, it passes 40 ms later, whenever the first one's timer fired.
    expect(later).toBeGreaterThanOrEqual(54);
    expect(queue.size).toBe(0);
  });

  it('holds no target once its deadline is cancelled, and keeps only what is still running', async () => {
    const queue = new DeadlineQueue(1_000);
    const expired: Array<[string, number]> = [];
    const deadlines = Array.from({ length: 5_000 }, (_, index) => queue.add(target(0, expired, `d${index}`)));
    // Exchanges end about in the order they began: the queue lets each go as it is cancelled.
    for (const deadline of deadlines.slice(0, 4_999)) deadline.cancel();
    expect(queue.size).toBe(1);
    deadlines[4_999]?.cancel();
    expect(queue.size).toBe(0);
    // Cancelling twice changes nothing.
    deadlines[0]?.cancel();
    expect(queue.size).toBe(0);
    queue.close();
    expect(expired).toEqual([]);
  });

  it('runs the deadlines set after an expiry under the same timer, re-armed for the next one', async () => {
    const queue = new DeadlineQueue(20);
    const start = performance.now();
    const expired: Array<[string, number]> = [];
    queue.add(target(start, expired, 'one'));
    await sleep(60);
    queue.add(target(start, expired, 'two'));
    queue.add(target(start, expired, 'three'));
    await sleep(60);
    expect(expired.map(([name]) => name)).toEqual(['one', 'two', 'three']);
    expect(expired[1]?.[1]).toBeGreaterThanOrEqual(79);
  });
});
