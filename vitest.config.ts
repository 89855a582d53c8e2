import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.js';

/**
 * The test files that start programs, browsers or servers of their own (the CLI, `npm pack` and
 * `npm install`, Chromium, redis-server, Dredd, the contract runners), by folder where a folder
 * holds only such files (a new file in test/redis/ lands here without naming it), by name elsewhere.
 */
const processHeavy = [
  'test/cli/**/*.test.ts',
  'test/node/**/*.test.ts',
  'test/project/**/*.test.ts',
  'test/redis/**/*.test.ts',
  'test/replicas/**/*.test.ts',
  'test/ui/**/*.test.ts',
  'test/adapters/msw-in-the-browser.test.ts',
  'test/adapters/msw-reset-between-tests.test.ts',
  'test/adapters/msw-under-strict-csp.test.ts',
  'test/contract/contract-runner.test.ts',
  'test/contract/deployment-catalogue*.test.ts',
  'test/contract/dredd-*.test.ts',
  'test/contract/mock-deployment.test.ts',
  'test/contract/explore/curl-command.test.ts',
  'test/contract/explore/explore-deployment.test.ts',
  'test/evolution/behaviour-over-the-cli-*.test.ts',
  'test/evolution/reference-page.test.ts',
  'test/evolution/suite-*.test.ts',
];

/**
 * Files at once. Most files wait on something else (a child process, npm, a browser, a socket), so
 * on a small machine more files than cores keep the cores busy; vitest's default (cores - 1) runs
 * one file at a time on 2 cores.
 */
const maxWorkers = Math.max(3, availableParallelism());

/**
 * What both projects share (the global setup is the root's alone: it runs once, for both). The timeouts
 * only bound a test that hangs; no test waits for them: they are wide enough for a machine busy with
 * other work (two CPU hogs beside the run).
 */
const shared = { environment: 'node' } as const;

export default defineConfig({
  test: {
    // The CLI tests run the programs as users do, from dist/: build it once before any test file.
    // The packed-package tests share one `npm pack` of the kit, made once per content (see the file).
    // The tests' temporary folders go into a folder of the run's own, and the run fails if one is left there.
    globalSetup: ['test/support/build-dist.ts', 'test/support/packed-tarball.ts', 'test/support/temporary-folder.ts'],
    maxWorkers,
    // The files known to take longest start first, so that the run does not end waiting for one alone.
    sequence: { sequencer: LongFilesFirst },
    // HTTP tests listen on ephemeral ports of 127.0.0.1 only; running files in parallel is safe.
    projects: [
      {
        test: {
          ...shared,
          // The core, the adapters in-process, the oracle and the suites over mock.fetch: files that start no
          // program. They share their workers' module cache (the compiled document, Ajv's validators), so
          // each file must leave the globals as it found them (timers, MSW's interception, stubs), as they do.
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: processHeavy,
          pool: 'threads',
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          ...shared,
          // In child processes rather than threads: they spawn programs, handle signals and hold browsers. The
          // files of one worker run one after another in its process, sharing its module cache (vitest's start
          // and the kit's modules, about 0.2 s of CPU a file), so each file stops what it started and leaves the
          // process as it found it (environment, listeners, timers), as they do.
          name: 'processes',
          include: processHeavy,
          pool: 'forks',
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
