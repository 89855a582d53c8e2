import { defineConfig } from 'vitest/config';

// The suite under each of vitest's environments, as a team's CI matrix would run it: a project per environment,
// named after it, the three in one run (`vitest run`; `--project jsdom` for one).
export default defineConfig({
  test: {
    projects: ['node', 'jsdom', 'happy-dom'].map((environment) => ({
      test: { name: environment, environment, include: ['test/**/*.suite.ts'], testTimeout: 20_000 },
    })),
  },
});
