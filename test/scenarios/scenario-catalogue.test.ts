import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath, defaultFixturesDir } from '../../src/package-root.js';
import {
  FixtureError,
  isScenarioPath,
  ScenarioCatalogue,
  type ScenarioCatalogueOptions,
} from '../../src/core/scenarios/scenario-catalogue.js';
import { generatePets } from '../../src/core/seed/generate-pets.js';
import { PetStore } from '../../src/core/store/pet-store.js';
import type { PetStatus } from '../../src/core/types/api-types.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);
const validatePet = compiled.validatorAt('/components/schemas/Pet');
const statuses = (compiled.document.components?.schemas?.PetStatus as { enum: PetStatus[] }).enum;

function shippedCatalogue(overrides: Partial<ScenarioCatalogueOptions> = {}): ScenarioCatalogue {
  return new ScenarioCatalogue({ compiled, fixturesDir: defaultFixturesDir, pets: 50, seed: 1, ...overrides });
}

let tempRoot: string;
let dirCount = 0;

beforeAll(() => {
  tempRoot = mkdtempSync(join(tmpdir(), 'petstore-scenarios-'));
});

afterAll(() => {
  rmSync(tempRoot, { recursive: true, force: true });
});

/** A fresh folder holding only the given files. */
function folderWith(files: Record<string, string>): string {
  const dir = join(tempRoot, `case-${++dirCount}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The error a catalogue over a folder holding only `file` stops with. */
function errorFor(file: string, text: string): { error: unknown; path: string } {
  const dir = folderWith({ [file]: text });
  try {
    new ScenarioCatalogue({ compiled, fixturesDir: dir, pets: 5, seed: 1 });
  } catch (error) {
    return { error, path: join(dir, file) };
  }
  throw new Error(`a catalogue over ${file} was built without an error`);
}

const onePet = (fields: string): string =>
  `description: one pet\npets:\n  - ${fields.trim().replace(/\n/g, '\n    ')}\n`;

describe('ScenarioCatalogue over the shipped fixtures', () => {
  it('lists every shipped fixture by name, with its description and source file', () => {
    const catalogue = shippedCatalogue();
    const list = catalogue.list();
    expect(list.map((info) => info.name)).toEqual(['default', 'edge-cases', 'empty', 'large', 'one-of-each-status']);
    for (const info of list) {
      expect(info.description.length).toBeGreaterThan(0);
      expect(info.source).toBe(join(defaultFixturesDir, `${info.name}.yaml`));
      expect(catalogue.has(info.name)).toBe(true);
    }
    expect(catalogue.has('nope')).toBe(false);
  });

  it("loads every shipped scenario with unique ids and pets that conform to the document's Pet schema", () => {
    const catalogue = shippedCatalogue();
    for (const { name } of catalogue.list()) {
      const scenario = catalogue.load(name);
      expect(scenario.name).toBe(name);
      const ids = scenario.pets.map((pet) => pet.id);
      expect(new Set(ids).size, name).toBe(ids.length);
      for (const pet of scenario.pets) {
        expect(validatePet(pet), `${name}: ${JSON.stringify(pet)}`).toBe(true);
        expect(Number.isSafeInteger(pet.id)).toBe(true);
      }
      expect(() => new PetStore().load(scenario)).not.toThrow();
    }
  });

  it('generates the default scenario from the --pets and --seed options', () => {
    const scenario = shippedCatalogue({ pets: 7, seed: 3 }).load('default');
    expect(scenario.pets).toEqual(generatePets({ count: 7, seed: 3, statuses, firstId: 1 }));
    expect(shippedCatalogue({ pets: 12, seed: 3 }).load('default').pets).toHaveLength(12);
    expect(shippedCatalogue({ pets: 7, seed: 4 }).load('default').pets).not.toEqual(scenario.pets);
  });

  it('gives the large scenario more pets than the largest page of 100, whatever --pets says', () => {
    const pets = shippedCatalogue({ pets: 5 }).load('large').pets;
    expect(pets.length).toBeGreaterThan(100);
    expect(pets).toHaveLength(250);
  });

  it('gives the one-of-each-status scenario exactly one pet per status', () => {
    const pets = shippedCatalogue().load('one-of-each-status').pets;
    expect(pets).toHaveLength(statuses.length);
    expect(pets.map((pet) => pet.status).sort()).toEqual([...statuses].sort());
  });

  it('loads the edge-cases scenario with its unicode names and extreme numbers intact', () => {
    const pets = shippedCatalogue().load('edge-cases').pets;
    expect(pets.length).toBeGreaterThan(5);
    const names = pets.map((pet) => pet.name);
    expect(names).toContain('小白');
    expect(names).toContain('');
    expect(names).toContain('<script>alert("not escaped")</script>');
    expect(pets.map((pet) => pet.categoryId)).toContain(Number.MAX_SAFE_INTEGER);
    expect(pets.some((pet) => pet.status === undefined)).toBe(true);
  });

  it('loads the empty scenario with no pets', () => {
    expect(shippedCatalogue().load('empty').pets).toEqual([]);
  });

  it('hands out fresh pet objects on each load, so changing one does not change the next load', () => {
    const catalogue = shippedCatalogue();
    const first = catalogue.load('one-of-each-status');
    (first.pets[0] as { name: string }).name = 'Changed';
    expect(catalogue.load('one-of-each-status').pets[0]?.name).toBe('Bella');
  });

  it('refuses an unknown scenario name, listing the known ones', () => {
    const catalogue = shippedCatalogue();
    expect(() => catalogue.load('nope')).toThrow(FixtureError);
    expect(() => catalogue.load('nope')).toThrow(
      "unknown scenario 'nope' (known: default, edge-cases, empty, large, one-of-each-status)",
    );
  });
});

describe('ScenarioCatalogue with a very large default scenario', () => {
  it('generates 300,000 pets without overflowing the call stack', () => {
    const scenario = shippedCatalogue({ pets: 300_000, seed: 1 }).load('default');
    expect(scenario.pets).toHaveLength(300_000);
    expect(scenario.pets.at(-1)?.id).toBe(300_000);
  });
});

describe('ScenarioCatalogue with bad fixtures', () => {
  it.each([
    {
      problem: 'a status outside the enum',
      text: onePet('id: 1\nname: A\ncategoryId: 1\nstatus: lost'),
      field: "'pets[0].status' must be one of: available, pending, sold",
    },
    { problem: 'a missing name', text: onePet('id: 1\ncategoryId: 1'), field: "'pets[0].name' is required" },
    {
      problem: 'a string categoryId',
      text: onePet("id: 1\nname: A\ncategoryId: '3'"),
      field: "'pets[0].categoryId' must be integer",
    },
    {
      problem: 'two pets with the same id',
      text: 'description: twins\npets:\n  - { id: 1, name: A, categoryId: 1 }\n  - { id: 1, name: B, categoryId: 1 }\n',
      field: "'pets[1].id' repeats id 1",
    },
    {
      problem: 'an id beyond 2^53-1',
      text: onePet('id: 9007199254740993\nname: A\ncategoryId: 1'),
      field: "'pets[0].id' must be an integer of at most 2^53-1",
    },
    {
      problem: 'a categoryId beyond 2^53-1',
      text: onePet('id: 1\nname: A\ncategoryId: 9007199254740993'),
      field: "'pets[0].categoryId' must be an integer of at most 2^53-1",
    },
    { problem: 'an unknown top-level key', text: 'description: typo\npetz: []\n', field: "'petz' is not allowed here" },
    { problem: 'no description', text: 'pets: []\n', field: "'description' is required" },
    {
      problem: 'a negative generate count',
      text: 'description: x\ngenerate: { count: -1 }\n',
      field: "'generate.count' must be >= 0",
    },
  ])('stops with a FixtureError naming the file and the field for $problem', ({ text, field }) => {
    const { error, path } = errorFor('bad.yaml', text);
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toContain(`${path}: `);
    expect((error as Error).message).toContain(`fixture field ${field}`);
  });

  it('stops with a FixtureError naming the file and the line for invalid YAML', () => {
    const { error, path } = errorFor('broken.yaml', 'description: x\npets: [\n');
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot be read as a fixture: .*at line 3`),
    );
  });

  it('refuses a YAML fixture that repeats a key instead of keeping the last value', () => {
    const { error, path } = errorFor('repeated.yaml', 'description: one\ndescription: two\n');
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('Map keys must be unique');
  });

  it('checks JSON fixtures against the same rules', () => {
    const { error, path } = errorFor(
      'bad.json',
      JSON.stringify({ description: 'x', pets: [{ id: 1, name: 'A', categoryId: 1.5 }] }),
    );
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toContain(`${path}: fixture field 'pets[0].categoryId' must be integer`);
  });

  it('ignores files in the fixtures folder that are not YAML or JSON', () => {
    const dir = folderWith({ 'README.md': 'not a fixture: [', 'ok.yml': 'description: fine\npets: []\n' });
    const catalogue = new ScenarioCatalogue({ compiled, fixturesDir: dir, pets: 5, seed: 1 });
    expect(catalogue.list().map((info) => info.name)).toEqual(['ok']);
  });

  it('stops with a FixtureError naming a fixtures folder that cannot be read', () => {
    const missing = join(tempRoot, 'does-not-exist');
    expect(() => new ScenarioCatalogue({ compiled, fixturesDir: missing, pets: 5, seed: 1 })).toThrow(
      new FixtureError(`${missing}: cannot be read (ENOENT)`),
    );
  });
});

describe('ScenarioCatalogue.addFile', () => {
  it('adds a fixture file by path and returns its scenario name, its file name without the extension', () => {
    const dir = folderWith({ 'my-pets.yaml': onePet('id: 5\nname: Solo\ncategoryId: 2\nstatus: sold') });
    const catalogue = shippedCatalogue();
    const name = catalogue.addFile(join(dir, 'my-pets.yaml'));
    expect(name).toBe('my-pets');
    expect(catalogue.has('my-pets')).toBe(true);
    expect(catalogue.list().find((info) => info.name === 'my-pets')?.source).toBe(join(dir, 'my-pets.yaml'));
    expect(catalogue.load('my-pets').pets).toEqual([{ id: 5, name: 'Solo', categoryId: 2, status: 'sold' }]);
  });

  it('validates an added file the same way, naming the file', () => {
    const dir = folderWith({ 'bad.yaml': onePet('id: 1\nname: A\ncategoryId: 1\nstatus: lost') });
    const catalogue = shippedCatalogue();
    expect(() => catalogue.addFile(join(dir, 'bad.yaml'))).toThrow(FixtureError);
    expect(() => catalogue.addFile(join(dir, 'bad.yaml'))).toThrow(`${join(dir, 'bad.yaml')}: fixture field`);
    expect(catalogue.has('bad')).toBe(false);
  });

  it('refuses a file whose name is already used by another fixture file', () => {
    const dir = folderWith({ 'default.yaml': 'description: another default\npets: []\n' });
    const catalogue = shippedCatalogue();
    expect(() => catalogue.addFile(join(dir, 'default.yaml'))).toThrow(
      `${join(dir, 'default.yaml')}: scenario name 'default' is already used by ${join(defaultFixturesDir, 'default.yaml')}`,
    );
  });

  it('stops with a FixtureError naming a file that does not exist', () => {
    const missing = join(tempRoot, 'missing.yaml');
    expect(() => shippedCatalogue().addFile(missing)).toThrow(`${missing}: cannot be read as a fixture`);
  });

  it('numbers generated pets after the highest listed id when a fixture has both', () => {
    const dir = folderWith({
      'mixed.yaml':
        'description: mixed\ngenerate: { count: 3, seed: 2 }\npets:\n  - { id: 10, name: A, categoryId: 1 }\n',
    });
    const catalogue = shippedCatalogue();
    const pets = catalogue.load(catalogue.addFile(join(dir, 'mixed.yaml'))).pets;
    expect(pets.map((pet) => pet.id)).toEqual([10, 11, 12, 13]);
    expect(pets.slice(1)).toEqual(generatePets({ count: 3, seed: 2, statuses, firstId: 11 }));
  });

  it('uses the categories of a generate block', () => {
    const dir = folderWith({ 'two.yaml': 'description: two\ngenerate: { count: 100, seed: 2, categories: 2 }\n' });
    const catalogue = shippedCatalogue();
    const pets = catalogue.load(catalogue.addFile(join(dir, 'two.yaml'))).pets;
    expect(new Set(pets.map((pet) => pet.categoryId))).toEqual(new Set([1, 2]));
  });
});

describe('isScenarioPath', () => {
  it('takes a name with a slash, a backslash or a fixture extension for a file path', () => {
    expect(isScenarioPath('./my.yaml')).toBe(true);
    expect(isScenarioPath('dir/file')).toBe(true);
    expect(isScenarioPath('dir\\file')).toBe(true);
    expect(isScenarioPath('my.yml')).toBe(true);
    expect(isScenarioPath('my.json')).toBe(true);
  });

  it('takes a bare name for a scenario of the fixtures folder', () => {
    expect(isScenarioPath('default')).toBe(false);
    expect(isScenarioPath('one-of-each-status')).toBe(false);
  });
});
