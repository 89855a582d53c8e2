import { defineConfig } from 'vitest/config';

// The environment is chosen on the command line (`--environment node|jsdom|happy-dom`), as a team's CI matrix would.
export default defineConfig({
  test: {
    include: ['test/**/*.suite.ts'],
    testTimeout: 20_000,
  },
});
