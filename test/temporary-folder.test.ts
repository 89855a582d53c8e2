import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import checkTemporaryFolders, {
  expectNoFoldersLeftIn,
  foldersLeftIn,
  temporaryFolder,
} from './support/temporary-folder.js';

// The tests' temporary folders (test/support/temporary-folder.ts), and the run's check that none is left behind.
describe('a temporary folder of a test', () => {
  const ofTheFile = temporaryFolder('petstore-of-the-file-');
  let ofTheTest = '';

  it('is made in the OS temp folder under the name asked for', () => {
    ofTheTest = temporaryFolder('petstore-of-a-test-');
    expect(existsSync(ofTheTest)).toBe(true);
    expect(ofTheTest.startsWith(join(tmpdir(), 'petstore-of-a-test-'))).toBe(true);
  });

  it('is gone, with what it held, once the test that made it finished; one made in the body lasts the file', () => {
    expect(ofTheTest).not.toBe('');
    expect(existsSync(ofTheTest)).toBe(false);
    expect(existsSync(ofTheFile)).toBe(true);
  });
});

describe('the run’s check for folders left behind', () => {
  it('names a folder a test left, and takes no folder of another program for one', () => {
    const root = temporaryFolder('petstore-check-');
    mkdirSync(join(root, 'chromium-profile-1'));
    expect(foldersLeftIn(root)).toEqual([]);
    expect(() => expectNoFoldersLeftIn(root)).not.toThrow();
    mkdirSync(join(root, 'petstore-cli-fixture-AbC123'));
    mkdirSync(join(root, 'contract-batch-contract-XyZ'));
    expect(() => expectNoFoldersLeftIn(root)).toThrow(
      /left 2 temporary folder\(s\) behind .*: contract-batch-contract-XyZ, petstore-cli-fixture-AbC123$/,
    );
  });

  it('gives the run a temp folder of its own, and removes it when nothing was left', () => {
    const outside = tmpdir();
    const teardown = checkTemporaryFolders();
    const own = tmpdir();
    try {
      expect(own).not.toBe(outside);
      expect(own.startsWith(join(outside, 'test-run-'))).toBe(true);
    } finally {
      teardown();
    }
    expect(tmpdir()).toBe(outside);
    expect(existsSync(own)).toBe(false);
  });
});
