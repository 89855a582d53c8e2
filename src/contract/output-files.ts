import { resolve } from 'node:path';
import { outputFileProblem } from '../node/output-file-problem.js';

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

/** Why a run could not write `file`, in the words of the suite's start-up check. */
function cannotWrite(file: string): string | undefined {
  const problem = outputFileProblem(file, { makeFolder: true, probePrefix: 'petstore-contract-check' });
  if (!problem) return undefined;
  switch (problem.kind) {
    case 'folder-not-made':
      return `its folder ${problem.folder} cannot be created (${problem.code})`;
    case 'folder-refuses-files':
      return `its folder ${problem.folder} does not take new files (${problem.code})`;
    case 'is-a-folder':
      return 'it is a folder';
    case 'not-writable':
      return `it exists and cannot be written (${problem.code})`;
    default:
      // The folder is made first: it is never missing, nor a file it could not make.
      return `its folder ${problem.folder} cannot be used`;
  }
}
