import { lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, parse, sep } from 'node:path';

/**
 * A state file path the mock will not use: a symbolic link, a folder another
 * user can change, a file of another user or with another name. The message
 * names the path, the problem and what to do.
 */
export class StatePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatePathError';
  }
}

/** Who the mock runs as; `undefined` where the platform has no user ids (Windows), which skips the owner checks. */
interface Runner {
  uid: number;
  gid: number;
}

function runner(): Runner | undefined {
  return typeof process.getuid === 'function' && typeof process.getgid === 'function'
    ? { uid: process.getuid(), gid: process.getgid() }
    : undefined;
}

const sticky = 0o1000;
const groupWritable = 0o020;
const othersWritable = 0o002;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function ownerName(uid: number): string {
  return uid === 0 ? 'root' : `uid ${uid}`;
}

/**
 * Why another user could change what is in `folder` (replace the state file
 * with a link, or the folder itself), or `undefined` when only the runner
 * (or root) can: it belongs to the runner or to root, and it is not writable
 * by others, nor by a group other than the runner's own, unless it has the
 * sticky bit (as /tmp has: there, nobody may remove or rename another's entry).
 */
function foreignFolder(folder: string, stats: Stats, me: Runner): string | undefined {
  if (stats.uid !== me.uid && stats.uid !== 0)
    return `the folder ${folder} belongs to another user (${ownerName(stats.uid)})`;
  if ((stats.mode & sticky) !== 0) return undefined;
  if ((stats.mode & othersWritable) !== 0)
    return `the folder ${folder} is writable by every user and has no sticky bit`;
  if ((stats.mode & groupWritable) !== 0 && stats.gid !== me.gid) {
    return `the folder ${folder} is writable by its group (gid ${stats.gid}), which is not yours, and has no sticky bit`;
  }
  return undefined;
}

/** Every folder from the root down to `folder`, the root first. */
function foldersDownTo(folder: string): string[] {
  const { root } = parse(folder);
  const parts = folder
    .slice(root.length)
    .split(sep)
    .filter((part) => part !== '');
  const folders = [root];
  let current = root;
  for (const part of parts) {
    current = current.endsWith(sep) ? `${current}${part}` : `${current}${sep}${part}`;
    folders.push(current);
  }
  return folders;
}

/**
 * Checks where a state file is, before it is read, locked or written, so
 * that no other user of the machine can make the mock write somewhere else
 * (a planted link: the kernel's `protected_symlinks` never applies when a
 * program follows a link itself) or swap the file under it:
 *
 * - the file itself must not be a symbolic link (it is opened with
 *   `O_NOFOLLOW` too), and, when it exists, must be a plain file of the user
 *   the mock runs as, with one name (a hard link elsewhere would be split by
 *   the next write, and a second mock on that name would not see this one's lock);
 * - the folder that holds it must not be a link either;
 * - a link further up the path is followed only when it belongs to the
 *   user or to root (macOS's /tmp → /private/tmp); and every folder on the
 *   real path must belong to the user or to root, and not be writable by
 *   other users (nor by a group not the user's own) unless it has the sticky
 *   bit (/tmp);
 * - with `create`, missing folders are made one at a time (mode 0700), each
 *   checked as it is made, and only when no part of the path is a link:
 *   never along a link's target.
 *
 * Where the platform has no user ids (Windows), only the link rules apply.
 * Returns whether the file exists.
 */
export function checkStatePath(path: string, options: { create: boolean }): boolean {
  const me = runner();
  const folder = dirname(path);
  const refuse = (problem: string, advice = 'name a state file in a folder of your own'): never => {
    throw new StatePathError(`${path}: ${problem}; ${advice}`);
  };
  // The lexical path, from the root down: which parts exist, and which are links.
  let deepest = parse(folder).root;
  let throughLink: string | undefined;
  const missing: string[] = [];
  for (const each of foldersDownTo(folder)) {
    if (missing.length > 0) {
      missing.push(each);
      continue;
    }
    const stats = lstatOrUndefined(each);
    if (!stats) {
      missing.push(each);
      continue;
    }
    if (stats.isSymbolicLink()) {
      if (each === folder) {
        refuse(
          `its folder ${each} is a symbolic link, which the mock does not follow`,
          'name the file by the folder the link points to, if you trust it',
        );
      }
      if (me && stats.uid !== me.uid && stats.uid !== 0) {
        refuse(
          `the path goes through the symbolic link ${each}, which belongs to another user (${ownerName(stats.uid)})`,
        );
      }
      throughLink ??= each;
    } else if (!stats.isDirectory()) {
      if (options.create) throw new StatePathError(`${path}: its folder ${each} cannot be created (EEXIST)`);
      // Reading a file below a file fails as it would have: ENOTDIR.
      return false;
    }
    deepest = each;
  }
  // Every folder of the real path down to the deepest that exists: none another user may change.
  if (me) {
    const real = realpathSync(deepest);
    for (const each of foldersDownTo(real)) {
      const problem = foreignFolder(each, statSync(each), me);
      if (problem) refuse(problem);
    }
  }
  if (missing.length > 0) {
    if (!options.create) return false;
    if (throughLink) {
      refuse(
        `its folder ${missing[0]} does not exist, and the mock makes no folder along a symbolic link (${throughLink})`,
        'make the folder yourself, or name the path without the link',
      );
    }
    for (const each of missing) {
      try {
        mkdirSync(each, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new StatePathError(
            `${path}: its folder ${each} cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
          );
        }
      }
      // Made now, or by someone else meanwhile: it must be a folder of the user's, not a link planted in the race.
      const stats = lstatSync(each);
      if (stats.isSymbolicLink()) refuse(`its folder ${each} appeared as a symbolic link while it was being made`);
      if (!stats.isDirectory()) refuse(`${each} is not a folder`);
      if (me) {
        const problem = foreignFolder(each, stats, me);
        if (problem) refuse(problem);
      }
    }
    return false;
  }
  const file = lstatOrUndefined(path);
  if (!file) return false;
  if (file.isSymbolicLink()) {
    refuse(
      'is a symbolic link, which the mock does not follow (another user could point it at a file of yours)',
      'name the file it points to, if you trust it',
    );
  }
  if (!file.isFile()) refuse('is not a plain file');
  if (me && file.uid !== me.uid) refuse(`belongs to another user (${ownerName(file.uid)})`);
  if (file.nlink > 1) {
    refuse(
      `has ${file.nlink} names (hard links): every write replaces the file, which would split them, and a mock started on another name would not see this one's lock; remove the other names`,
    );
  }
  return true;
}
