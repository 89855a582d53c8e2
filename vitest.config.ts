import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // The CLI tests run the programs as users do, from dist/: build it once before any test file.
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // HTTP tests listen on ephemeral ports of 127.0.0.1 only; running files in parallel is safe.
    pool: 'forks',
  },
});
