import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outputFileProblem } from '../../src/node/output-file-problem.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'output-file-'));
  made.push(dir);
  return dir;
}

describe('outputFileProblem', () => {
  it('makes a missing folder when asked to, and otherwise names it missing', () => {
    const dir = folder();
    const file = join(dir, 'reports', 'deep', 'run.xml');
    expect(outputFileProblem(file, { makeFolder: false, probePrefix: 'test' })).toEqual({
      kind: 'folder-missing',
      folder: join(dir, 'reports', 'deep'),
    });
    expect(outputFileProblem(file, { makeFolder: true, probePrefix: 'test' })).toBeUndefined();
    expect(readdirSync(join(dir, 'reports', 'deep'))).toEqual([]);
  });

  it('names a folder that is a file, a file that is a folder, and leaves no probe behind', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a-file'), '');
    mkdirSync(join(dir, 'a-folder'));
    expect(outputFileProblem(join(dir, 'a-file', 'x.json'), { makeFolder: false, probePrefix: 'test' })?.kind).toBe(
      'not-a-folder',
    );
    expect(outputFileProblem(join(dir, 'a-file', 'x.json'), { makeFolder: true, probePrefix: 'test' })?.kind).toBe(
      'folder-not-made',
    );
    expect(outputFileProblem(join(dir, 'a-folder'), { makeFolder: false, probePrefix: 'test' })).toEqual({
      kind: 'is-a-folder',
    });
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'a-folder']);
  });
});
