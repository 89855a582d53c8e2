import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { generatePets } from '../seed/generate-pets.js';
import { findPetListProblem } from '../store/find-pet-list-problem.js';
import type { Scenario } from '../store/pet-store.js';
import type { Pet, PetStatus } from '../types/api-types.js';

/** A fixture file that cannot be used. Its message names the file and the field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}

export interface ScenarioInfo {
  name: string;
  description: string;
  source: string;
}

interface FixtureFile {
  description: string;
  generate?: { count?: number; seed?: number; categories?: number };
  pets?: Pet[];
}

export interface ScenarioCatalogueOptions {
  compiled: CompiledDocument;
  fixturesDir: string;
  /** How many pets a `generate` block without a `count` makes (`--pets`). */
  pets: number;
  /** The seed of a `generate` block without its own (`--seed`). */
  seed: number;
}

const fixtureExtensions = ['.yaml', '.yml', '.json'];

/** The fixture format. Pets are checked against the document's own `Pet` schema. */
const fixtureSchema = {
  type: 'object',
  required: ['description'],
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    generate: {
      type: 'object',
      additionalProperties: false,
      properties: {
        count: { type: 'integer', minimum: 0, maximum: 10_000_000 },
        seed: { type: 'integer' },
        categories: { type: 'integer', minimum: 1 },
      },
    },
    pets: { type: 'array', items: { $ref: 'openapi.json#/components/schemas/Pet' } },
  },
};

/** True when `--scenario` names a file rather than a scenario in the fixtures folder. */
export function isScenarioPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || fixtureExtensions.includes(extname(nameOrPath));
}

/**
 * The scenarios a store can be loaded with: every fixture file in the fixtures
 * folder, plus any file loaded by path. Files are validated when the catalogue
 * is built, so a bad fixture stops start-up; generated pets are only made when
 * a scenario is loaded.
 */
export class ScenarioCatalogue {
  readonly #options: ScenarioCatalogueOptions;
  readonly #validate: ValidateFunction;
  readonly #statuses: PetStatus[];
  readonly #files = new Map<string, { source: string; fixture: FixtureFile }>();

  constructor(options: ScenarioCatalogueOptions) {
    this.#options = options;
    this.#validate = options.compiled.compileSchema(fixtureSchema);
    const statusSchema = options.compiled.document.components?.schemas?.PetStatus as { enum?: PetStatus[] } | undefined;
    this.#statuses = statusSchema?.enum ?? [];
    let entries: string[];
    try {
      entries = readdirSync(options.fixturesDir).sort();
    } catch (error) {
      throw new FixtureError(`${options.fixturesDir}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
    }
    for (const entry of entries) {
      if (!fixtureExtensions.includes(extname(entry))) continue;
      this.#add(join(options.fixturesDir, entry));
    }
  }

  /** Every known scenario, by name. */
  list(): ScenarioInfo[] {
    return [...this.#files].map(([name, { source, fixture }]) => ({ name, description: fixture.description, source }));
  }

  has(name: string): boolean {
    return this.#files.has(name);
  }

  /** Adds a fixture file from anywhere (`--scenario ./my.yaml`) and returns its scenario name. */
  addFile(path: string): string {
    return this.#add(resolve(path));
  }

  /** Builds the pets of a known scenario (generating them if the fixture asks). */
  load(name: string): Scenario {
    const entry = this.#files.get(name);
    if (!entry) throw new FixtureError(`unknown scenario '${name}' (known: ${[...this.#files.keys()].join(', ')})`);
    const { fixture } = entry;
    let pets: Pet[] = (fixture.pets ?? []).map((pet) => ({ ...pet }));
    if (fixture.generate) {
      const firstId = pets.reduce((max, pet) => Math.max(max, pet.id), 0) + 1;
      // concat, not push(...): a spread of a million pets overflows the call stack.
      pets = pets.concat(
        generatePets({
          count: fixture.generate.count ?? this.#options.pets,
          seed: fixture.generate.seed ?? this.#options.seed,
          categories: fixture.generate.categories,
          statuses: this.#statuses,
          firstId,
        }),
      );
    }
    return { name, pets };
  }

  #add(source: string): string {
    const name = basename(source, extname(source));
    let value: unknown;
    try {
      const text = readFileSync(source, 'utf8');
      // YAML reads JSON too, and refuses a repeated key where JSON.parse would keep the last.
      value = parseYaml(text, { uniqueKeys: true });
    } catch (error) {
      throw new FixtureError(`${source}: cannot be read as a fixture: ${(error as Error).message.split('\n')[0]}`);
    }
    if (!this.#validate(value)) {
      throw new FixtureError(`${source}: ${listDetails(fromAjvErrors(this.#validate.errors ?? [], 'fixture'))}`);
    }
    const fixture = value as FixtureFile;
    const problem = findPetListProblem(fixture.pets ?? [], 'fixture field');
    if (problem) throw new FixtureError(`${source}: ${problem}`);
    const existing = this.#files.get(name);
    if (existing && existing.source !== source) {
      throw new FixtureError(`${source}: scenario name '${name}' is already used by ${existing.source}`);
    }
    this.#files.set(name, { source, fixture });
    return name;
  }
}
