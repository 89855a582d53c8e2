import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, whatever the machine (npm installs, the CLI over every suite, the
 * browser, the catalogue's parts), in the order they should start. vitest orders by the durations of
 * an earlier run when it has them, and by file size otherwise (a fresh clone, CI): a long file of a
 * few lines then starts last and the run waits for it alone.
 */
const longFiles = [
  'test/project/packed-package.test.ts',
  'test/project/app-suite-msw-',
  'test/evolution/behaviour-over-the-cli-',
  'test/project/doc-snippets.test.ts',
  'test/project/contract-actions-job.test.ts',
  'test/contract/deployment-catalogue-',
  'test/fuzz/mock-properties.test.ts',
  'test/redis/behaviour-on-redis.test.ts',
  'test/replicas/',
  'test/evolution/behaviour-behind-msw.test.ts',
  'test/cli/state-file.test.ts',
  'test/adapters/msw-reset-between-tests.test.ts',
  'test/evolution/behaviour-through-mock-fetch.test.ts',
  'test/ui/',
];

const rank = (spec: TestSpecification): number => {
  const path = spec.moduleId.replaceAll('\\', '/');
  const index = longFiles.findIndex((long) => path.includes(`/${long}`));
  return index === -1 ? longFiles.length : index;
};

/** vitest's own order (an earlier run's durations, or file size), with the files known to be long first. */
export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank, vitest's order stands.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
