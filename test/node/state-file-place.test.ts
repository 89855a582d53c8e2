import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { MemoryStore } from '../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../src/core/store/revision-counter.js';
import { createScenario } from '../../src/core/store/scenario.js';
import { petShape, petsIn } from '../support/kit-model.js';
import type { ExactPet } from '../../src/core/types/api-types.js';
import { StateFile, StateFileError, stateFormat } from '../../src/persistence/state-file.js';

const revisions = createRevisionCounter();
const bella: ExactPet = { id: 1, name: 'Bella', categoryId: 1, status: 'available' };
/** Root passes every permission check, and can give a file or folder to another user, as an attacker's would be. */
const asRoot = process.getuid?.() === 0;
const otherUser = 4242;

function storeWith(pets: ExactPet[] = [bella]): MemoryStore {
  const store = new MemoryStore({ shapes: [petShape], revisions });
  store.load(createScenario('test', { pets }, [petShape], revisions));
  return store;
}

const validState = JSON.stringify({ format: stateFormat, version: 1, scenario: 'test', pets: [bella] });

/** A logger that keeps the warnings, to show what the user is told. */
function recordingLogger(): MockLogger & { warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return { warnings, error: ignore, info: ignore, debug: ignore, warn: (_details, message) => warnings.push(message) };
}

describe('where a state file may be', () => {
  let dir: string;
  let path: string;
  const opened: StateFile[] = [];
  const stateFile = (options: ConstructorParameters<typeof StateFile>[1] = {}, at = path) => {
    const file = new StateFile(at, { debounceMs: 5, ...options });
    opened.push(file);
    return file;
  };
  /** The StateFileError `watch` (and `read`) stop with, checking that both refuse alike. */
  const refusal = (at = path): string => {
    let message: string | undefined;
    try {
      stateFile({}, at).read();
    } catch (error) {
      expect(error).toBeInstanceOf(StateFileError);
      message = (error as Error).message;
    }
    try {
      stateFile({}, at).watch(storeWith());
    } catch (error) {
      expect(error).toBeInstanceOf(StateFileError);
      if (message !== undefined) expect((error as Error).message).toBe(message);
      return (error as Error).message;
    }
    throw new Error(`the state file ${at} was accepted`);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-place-'));
    path = join(dir, 'state.json');
  });
  afterEach(async () => {
    for (const file of opened.splice(0)) await file.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a link planted at the file’s name, and writes nothing where it points', () => {
    // Another user's link in a shared folder, pointing at a file the victim's shell runs.
    const victim = join(dir, 'home', 'newdir', '.bash_profile');
    symlinkSync(victim, path);
    expect(refusal()).toBe(
      `${path}: is a symbolic link, which the mock does not follow (another user could point it at a file of yours); name the file it points to, if you trust it`,
    );
    // Neither the file nor the folders along the link's target were made, and no lock was left.
    expect(existsSync(join(dir, 'home'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it('refuses a link to an existing file, and leaves the file as it was', () => {
    const target = join(dir, 'real.json');
    writeFileSync(target, validState);
    symlinkSync(target, path);
    expect(refusal()).toContain('is a symbolic link, which the mock does not follow');
    expect(readFileSync(target, 'utf8')).toBe(validState);
  });

  it('refuses a folder that is a link, and a path whose missing folders lie along a link', () => {
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'linked'));
    expect(refusal(join(dir, 'linked', 'state.json'))).toBe(
      `${join(dir, 'linked', 'state.json')}: its folder ${join(dir, 'linked')} is a symbolic link, which the mock does not follow; name the file by the folder the link points to, if you trust it`,
    );
    const deeper = join(dir, 'linked', 'new', 'state.json');
    expect(() => stateFile({}, deeper).watch(storeWith())).toThrow(
      `${deeper}: its folder ${join(dir, 'linked', 'new')} does not exist, and the mock makes no folder along a symbolic link (${join(dir, 'linked')}); make the folder yourself, or name the path without the link`,
    );
    expect(readdirSync(join(dir, 'real'))).toEqual([]);
  });

  it('refuses a file with a second name (a hard link), which a second mock could lock apart', () => {
    writeFileSync(path, validState);
    linkSync(path, join(dir, 'other-name.json'));
    expect(refusal()).toBe(
      `${path}: has 2 names (hard links): every write replaces the file, which would split them, and a mock started on another name would not see this one's lock; remove the other names; name a state file in a folder of your own`,
    );
    expect(refusal(join(dir, 'other-name.json'))).toContain('has 2 names (hard links)');
  });

  it('refuses a folder writable by every user without the sticky bit, and takes one with it (as /tmp)', () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(refusal(join(shared, 'state.json'))).toBe(
      `${join(shared, 'state.json')}: the folder ${shared} is writable by every user and has no sticky bit; name a state file in a folder of your own`,
    );
    chmodSync(shared, 0o1777);
    stateFile({}, join(shared, 'state.json')).watch(storeWith());
    expect(existsSync(join(shared, 'state.json'))).toBe(true);
  });

  it.runIf(asRoot)('refuses a folder, a link on the path, or a file that belongs to another user', () => {
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs);
    chownSync(theirs, otherUser, otherUser);
    expect(refusal(join(theirs, 'state.json'))).toBe(
      `${join(theirs, 'state.json')}: the folder ${theirs} belongs to another user (uid ${otherUser}); name a state file in a folder of your own`,
    );
    mkdirSync(join(dir, 'mine', 'inner'), { recursive: true });
    symlinkSync(join(dir, 'mine'), join(dir, 'their-link'));
    // The link itself is theirs; the folder it points to is root's.
    lchownSync(join(dir, 'their-link'), otherUser, otherUser);
    expect(refusal(join(dir, 'their-link', 'inner', 'state.json'))).toContain(
      `the path goes through the symbolic link ${join(dir, 'their-link')}, which belongs to another user (uid ${otherUser})`,
    );
    writeFileSync(path, validState);
    chownSync(path, otherUser, otherUser);
    expect(refusal()).toBe(
      `${path}: belongs to another user (uid ${otherUser}); name a state file in a folder of your own`,
    );
  });

  it('still makes the missing folders of a new file, each of mode 0700', () => {
    const nested = join(dir, 'a', 'b', 'state.json');
    stateFile({}, nested).watch(storeWith());
    expect(existsSync(nested)).toBe(true);
    expect(lstatSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
  });
});

describe('a state file changed while the mock runs', () => {
  let dir: string;
  let path: string;
  let file: StateFile | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-edited-'));
    path = join(dir, 'state.json');
  });
  afterEach(async () => {
    await file?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is never overwritten without a word: the edited version is kept beside, and a warning names both', async () => {
    const logger = recordingLogger();
    const store = storeWith();
    file = new StateFile(path, { debounceMs: 5, logger });
    file.watch(store);
    const edited = validState.replace('Bella', 'Edited by hand');
    writeFileSync(path, edited);
    petsIn(store).create({ name: 'Rex', categoryId: 2 });
    await file.flush();
    const kept = readdirSync(dir).filter((name) => name.startsWith('state.json.edited-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0] as string), 'utf8')).toBe(edited);
    expect((JSON.parse(readFileSync(path, 'utf8')) as { pets: ExactPet[] }).pets.map((pet) => pet.name)).toEqual([
      'Bella',
      'Rex',
    ]);
    expect(logger.warnings).toEqual([
      `the state file was changed by another program while the mock ran: that version is kept as ${join(dir, kept[0] as string)}, and the mock's pets are written to ${path}; stop the mock before editing the file, then start it on the file you want`,
    ]);
    // The mock's own writes are not taken for edits.
    petsIn(store).create({ name: 'Max', categoryId: 2 });
    await file.flush();
    expect(readdirSync(dir).filter((name) => name.startsWith('state.json.edited-'))).toHaveLength(1);
  });

  it('keeps a version an editor saved under a new file (the same size, another inode)', async () => {
    writeFileSync(path, validState);
    const logger = recordingLogger();
    const store = storeWith();
    file = new StateFile(path, { debounceMs: 5, logger });
    file.read();
    file.watch(store);
    // Same length, saved as editors do: a new file renamed over the old one.
    writeFileSync(join(dir, 'swap'), validState.replace('Bella', 'Bello'));
    renameSync(join(dir, 'swap'), path);
    petsIn(store).create({ name: 'Rex', categoryId: 2 });
    await file.flush();
    expect(readdirSync(dir).filter((name) => name.startsWith('state.json.edited-'))).toHaveLength(1);
    expect(logger.warnings).toHaveLength(1);
  });

  it('writes a file removed meanwhile again, and says so', async () => {
    const logger = recordingLogger();
    const store = storeWith();
    file = new StateFile(path, { debounceMs: 5, logger });
    file.watch(store);
    rmSync(path);
    petsIn(store).create({ name: 'Rex', categoryId: 2 });
    await file.flush();
    expect(existsSync(path)).toBe(true);
    expect(logger.warnings).toEqual(['the state file was removed while the mock ran; it is written again']);
  });
});
