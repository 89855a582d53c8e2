import { defineConfig } from 'vitest/config';

// The MSW suite that msw-reset-between-tests.test.ts runs in a child vitest, in shuffled orders: only it, and no
// global setup (it runs from src/, nothing needs building).
export default defineConfig({
  test: {
    include: ['test/adapters/reset-suite/*.suite.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
