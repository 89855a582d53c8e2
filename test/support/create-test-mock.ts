import { createMock, type Mock, type MockOptions } from '../../src/index.js';

/** The one key the test mocks accept. */
export const testKey = 'test-key';
export const auth = { Authorization: `Bearer ${testKey}` };
export const jsonAuth = { ...auth, 'Content-Type': 'application/json' };

/**
 * The mock for Node, in-process (no port), with test defaults: the key
 * `test-key`, the default scenario, seed 1. Ready at once (Node loads Faker
 * synchronously).
 */
export function createTestMock(options: MockOptions = {}): Mock {
  return createMock({ keys: [testKey], ...options });
}
