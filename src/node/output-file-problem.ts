import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Why a file cannot be written, for its caller to word: the folder, or the file itself. */
export type OutputFileProblem =
  | { kind: 'folder-missing'; folder: string }
  | { kind: 'folder-not-made' | 'folder-unreadable' | 'folder-refuses-files'; folder: string; code: string }
  | { kind: 'not-a-folder'; folder: string }
  | { kind: 'is-a-folder' }
  | { kind: 'not-writable'; code: string };

export interface OutputFileOptions {
  /** Make the folder when it is missing (as `mkdir -p`), rather than call it missing. */
  makeFolder: boolean;
  /** How the probe file left for a moment in the folder begins (it is named after the tool). */
  probePrefix: string;
}

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Why `file` could not be written, or undefined when it can: its folder must
 * exist (or be made) and take a new file (a probe is created and removed
 * there, as `access(W_OK)` says yes to root on a read-only file system), and
 * an existing file must be a file that opens for writing. The contract
 * suite's `--junit` and `--json` and the proxy's report, JUnit file and
 * recording are all checked so, before any request is sent.
 */
export function outputFileProblem(file: string, options: OutputFileOptions): OutputFileProblem | undefined {
  const folder = dirname(file);
  if (options.makeFolder) {
    try {
      mkdirSync(folder, { recursive: true });
    } catch (error) {
      return { kind: 'folder-not-made', folder, code: codeOf(error) };
    }
  } else {
    try {
      if (!statSync(folder).isDirectory()) return { kind: 'not-a-folder', folder };
    } catch (error) {
      const code = codeOf(error);
      return code === 'ENOENT' ? { kind: 'folder-missing', folder } : { kind: 'folder-unreadable', folder, code };
    }
  }
  const probe = join(folder, `.${options.probePrefix}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    return { kind: 'folder-refuses-files', folder, code: codeOf(error) };
  } finally {
    rmSync(probe, { force: true });
  }
  try {
    if (statSync(file).isDirectory()) return { kind: 'is-a-folder' };
    closeSync(openSync(file, 'r+'));
  } catch (error) {
    const code = codeOf(error);
    if (code !== 'ENOENT') return { kind: 'not-writable', code };
  }
  return undefined;
}
