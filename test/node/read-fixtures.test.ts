import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FixtureError } from '../../src/core/scenarios/fixture.js';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { isScenarioPath, readFixtureFile, readFixturesDir } from '../../src/node/read-fixtures.js';
import { petsIn } from '../support/kit-model.js';
import { temporaryFolder } from '../support/temporary-folder.js';

const tempRoot = temporaryFolder('petstore-fixtures-');
let dirCount = 0;

/** A fresh folder holding only the given files. */
function folderWith(files: Record<string, string>): string {
  const dir = join(tempRoot, `case-${++dirCount}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function caught(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('no error was thrown');
}

describe('readFixtureFile', () => {
  it('reads a YAML fixture as a scenario named after the file, integers exactly', () => {
    const dir = folderWith({
      'my-pets.yaml': 'description: mine\npets:\n  - { id: 9223372036854775807, name: A, categoryId: 1 }\n',
    });
    expect(readFixtureFile(join(dir, 'my-pets.yaml'))).toEqual({
      name: 'my-pets',
      source: join(dir, 'my-pets.yaml'),
      fixture: { description: 'mine', pets: [{ id: 9223372036854775807n, name: 'A', categoryId: 1 }] },
    });
  });

  it('says in one line what is wrong with broken YAML: the reason, line, column and the line itself', () => {
    const dir = folderWith({ 'broken.yaml': 'description: x\npets: [{ id: 1, name: a: b }]\n' });
    const error = caught(() => readFixtureFile(join(dir, 'broken.yaml')));
    expect(error).toBeInstanceOf(FixtureError);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(
      new RegExp(
        `^${join(dir, 'broken.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid YAML or JSON: .+ at line 2, column \\d+: "pets: \\[\\{ id: 1, name: a: b \\}\\]"$`,
      ),
    );
  });

  it('refuses a YAML fixture that repeats a key instead of keeping the last value', () => {
    const dir = folderWith({ 'repeated.yaml': 'description: one\ndescription: two\n' });
    const error = caught(() => readFixtureFile(join(dir, 'repeated.yaml')));
    expect(error.message).toContain('Map keys must be unique at line 2');
  });

  it('names a file that does not exist', () => {
    const missing = join(tempRoot, 'missing.yaml');
    expect(caught(() => readFixtureFile(missing)).message).toBe(`${missing}: cannot be read (ENOENT)`);
  });
});

describe('readFixturesDir', () => {
  it('reads YAML and JSON fixtures and ignores every other file', () => {
    const dir = folderWith({
      'README.md': 'not a fixture: [',
      'ok.yml': 'description: fine\npets: []\n',
      'other.json': '{"description":"json","pets":[]}',
    });
    const { fixtures, sources } = readFixturesDir(dir);
    expect(Object.keys(fixtures).sort()).toEqual(['ok', 'other']);
    expect(sources.ok).toBe(join(dir, 'ok.yml'));
  });

  it('names a fixtures folder that cannot be read', () => {
    const missing = join(tempRoot, 'does-not-exist');
    expect(caught(() => readFixturesDir(missing)).message).toBe(`${missing}: cannot be read (ENOENT)`);
  });
});

describe('a scenario file given to the Node mock', () => {
  it('is checked like any fixture, naming the file and the field', () => {
    const dir = folderWith({ 'bad.yaml': 'description: x\npets:\n  - { id: 1, name: A, categoryId: 1.5 }\n' });
    const error = caught(() => createNodeMock({ scenario: join(dir, 'bad.yaml') }));
    expect(error).toBeInstanceOf(FixtureError);
    expect(error.message).toBe(`${join(dir, 'bad.yaml')}: field 'pets[0].categoryId' must be integer`);
  });

  it('is served when valid', async () => {
    const dir = folderWith({
      'mine.yaml': 'description: mine\npets:\n  - { id: 5, name: Solo, categoryId: 2, status: sold }\n',
    });
    const mock = createNodeMock({ scenario: join(dir, 'mine.yaml') });
    expect(mock.scenario).toBe('mine');
    expect(petsIn(mock.store).all()).toEqual([{ id: 5, name: 'Solo', categoryId: 2, status: 'sold' }]);
  });

  it('may not take the name of one of the kit’s scenarios', () => {
    const dir = folderWith({ 'default.yaml': 'description: another default\npets: []\n' });
    expect(caught(() => createNodeMock({ scenario: join(dir, 'default.yaml') })).message).toBe(
      `${join(dir, 'default.yaml')}: scenario name 'default' is already used by fixtures/default.yaml`,
    );
  });
});

describe('isScenarioPath', () => {
  it('takes a name with a slash, a backslash or a fixture extension for a file path', () => {
    for (const path of ['./my.yaml', 'dir/file', 'dir\\file', 'my.yml', 'my.json'])
      expect(isScenarioPath(path)).toBe(true);
  });

  it('takes a bare name for a scenario of the kit', () => {
    expect(isScenarioPath('default')).toBe(false);
    expect(isScenarioPath('one-of-each-status')).toBe(false);
  });
});
