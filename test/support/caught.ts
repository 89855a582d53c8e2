import { expect } from 'vitest';

/**
 * Runs `act`, which must throw an instance of `kind`, and returns that error
 * so a test can look at its message or fields. Fails the test, saying what
 * was accepted, when nothing is thrown.
 */
export function caught<E extends Error>(kind: new (...args: never[]) => E, act: () => unknown, accepted: string): E {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return error as E;
  }
  throw new Error(`${accepted} was accepted`);
}
