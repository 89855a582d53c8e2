import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Makes ready the files a run is asked to write (`--junit`, `--json`), before
 * it sends any request: each one's folder is created when missing (as
 * `mkdir -p`, so `--junit reports/contract.xml` needs no `reports/` first),
 * and must take a new file (one is created and removed there, as
 * `access(W_OK)` says yes to root on a read-only file system); a file that
 * exists must be a file that opens for writing. Returns why a file cannot be
 * written, naming it, or undefined when every one can: the run then refuses
 * to start (exit 2) rather than check a deployment whose verdict it could not
 * keep.
 */
export function prepareOutputFiles(
  files: ReadonlyArray<{ flag: string; file: string | undefined }>,
): string | undefined {
  for (const { flag, file } of files) {
    if (file === undefined) continue;
    const problem = cannotWrite(resolve(file));
    if (problem) return `${flag} ${file} cannot be written: ${problem}`;
  }
  return undefined;
}

function cannotWrite(file: string): string | undefined {
  const folder = dirname(file);
  const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    return `its folder ${folder} cannot be created (${code(error)})`;
  }
  const probe = join(folder, `.petstore-contract-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    return `its folder ${folder} does not take new files (${code(error)})`;
  } finally {
    rmSync(probe, { force: true });
  }
  try {
    if (statSync(file).isDirectory()) return 'it is a folder';
    closeSync(openSync(file, 'r+'));
  } catch (error) {
    if (code(error) !== 'ENOENT') return `it exists and cannot be written (${code(error)})`;
  }
  return undefined;
}
