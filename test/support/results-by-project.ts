import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** A test's outcome, as `ResultsByProject` writes it. */
export interface TestOutcome {
  title: string;
  state: string;
  /** The first line of its first error, when it failed. */
  failure?: string;
}

/** What `ResultsByProject` writes: each project's tests, and the errors of the run outside any test. */
export interface ResultsByProject {
  projects: Record<string, TestOutcome[]>;
  unhandled: string[];
}

/**
 * A vitest reporter, for a project's suite run by the tests (test/support/frontend-app.ts): each project's
 * tests and their outcomes, written as JSON to the file named by RESULTS_FILE. vitest's own JSON report does
 * not say which project a test ran in. A file's own error (an import that failed) is a failed test '(file)'.
 */
export default class ResultsByProjectReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message: string }>): void {
    const results: ResultsByProject = { projects: {}, unhandled: unhandled.map((error) => error.message) };
    for (const module of modules) {
      const tests = (results.projects[module.project.name] ??= []);
      for (const error of module.errors()) tests.push({ title: '(file)', state: 'failed', failure: error.message });
      for (const test of module.children.allTests()) {
        const { state, errors } = test.result();
        tests.push({ title: test.name, state, failure: errors?.[0]?.message.split('\n')[0] });
      }
    }
    writeFileSync(process.env.RESULTS_FILE as string, JSON.stringify(results));
  }
}
