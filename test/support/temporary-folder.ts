import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';

/**
 * A new folder in the OS temp folder, named `prefix` and a random tail, removed with all it holds when the
 * test that made it finishes; made outside a test (in a file's or a describe's body, where hooks are
 * registered), when that file or describe is done. Not from a `beforeAll`: a hook registered there has no suite.
 */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  if (TestRunner.getCurrentTest()) onTestFinished(remove);
  else afterAll(remove);
  return folder;
}

/** The names the test files give their temporary folders (the check below looks for these). */
export const temporaryPrefixes = ['petstore-', 'contract-batch-'] as const;

/** The folders in `root` that a test made and left behind (named with one of `temporaryPrefixes`). */
export function foldersLeftIn(root: string): string[] {
  return readdirSync(root)
    .filter((name) => temporaryPrefixes.some((prefix) => name.startsWith(prefix)))
    .sort();
}

/** Throws, naming them, when a test left a temporary folder in `root`. */
export function expectNoFoldersLeftIn(root: string): void {
  const left = foldersLeftIn(root);
  if (left.length === 0) return;
  const shown = left.slice(0, 10).join(', ');
  throw new Error(
    `the tests left ${left.length} temporary folder(s) behind (make them with temporaryFolder() of ` +
      `test/support/temporary-folder.ts): ${shown}${left.length > 10 ? ', …' : ''}`,
  );
}

/**
 * vitest global setup: the run's temp folder is one of its own (TMPDIR, which os.tmpdir() reads, for the
 * workers and every program they start), so that other work on the machine cannot make or take a folder in
 * it; once every file has run, the run fails if a test left a folder there, and the folder is removed.
 */
export default function checkTemporaryFolders(): () => void {
  const outside = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'test-run-'));
  process.env.TMPDIR = root;
  return () => {
    if (outside === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outside;
    try {
      expectNoFoldersLeftIn(root);
    } catch (error) {
      // vitest reports an error thrown here without failing the run: the exit code says it.
      process.exitCode = 1;
      throw error;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
}
