import { afterEach, describe, expect, it, vi } from 'vitest';
import { wallClockAt } from '../../../src/core/support/wall-clock-at.js';

describe('wallClockAt', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the wall-clock time of a moment of the monotonic clock, reading the wall clock once a second at most', () => {
    const wall = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    // Far past any anchor an earlier call made: the wall clock is read now, at this moment.
    vi.spyOn(performance, 'now').mockReturnValue(5e9);
    expect(wallClockAt(5e9)).toBe(1_700_000_000_000);
    expect(wallClockAt(5e9 + 250.7)).toBe(1_700_000_000_250);
    // A request that started a little before the anchor was read.
    expect(wallClockAt(5e9 - 40)).toBe(1_699_999_999_960);
    expect(wall).toHaveBeenCalledTimes(1);
  });

  it('follows a wall clock that was set, once its last reading is a second old', () => {
    const wall = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const monotonic = vi.spyOn(performance, 'now').mockReturnValue(6e9);
    expect(wallClockAt(6e9)).toBe(1_700_000_000_000);
    // The clock is set an hour forward; within the second the old reading still serves.
    wall.mockReturnValue(1_700_003_600_500);
    expect(wallClockAt(6e9 + 500)).toBe(1_700_000_000_500);
    monotonic.mockReturnValue(6e9 + 1_000);
    expect(wallClockAt(6e9 + 1_000)).toBe(1_700_003_600_500);
    expect(wall).toHaveBeenCalledTimes(2);
  });
});
