import type { ValidateFunction } from 'ajv';
import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { GeneratePetsOptions } from '../seed/generate-pets.js';
import { createPetListCheck, PetListError } from '../store/check-pet-list.js';
import { createScenario, type RevisionCounter, type Scenario } from '../store/pet-store.js';
import type { Pet, PetStatus } from '../types/api-types.js';
import { FixtureError, fixtureSchema, type Fixture } from './fixture.js';

export interface ScenarioInfo {
  name: string;
  description: string;
  /** Where it came from: a file path, or `built-in`, or `object`. */
  source: string;
}

/** Makes Faker pets. Synchronous where Faker is already loaded (Node); a promise where it is loaded on demand. */
export type GeneratePets = (options: GeneratePetsOptions) => Pet[] | Promise<Pet[]>;

export interface ScenarioCatalogueOptions {
  compiled: CompiledDocument;
  revisions: RevisionCounter;
  /** How many pets a `generate` block without a `count` makes (`--pets`). */
  pets: number;
  /** The seed of a `generate` block without its own (`--seed`). */
  seed: number;
  generatePets: GeneratePets;
}

const scenarioName = /^[\w.-]{1,64}$/;

/**
 * The scenarios a store can be loaded with. Fixtures are checked when they
 * are added (their format, then their pets by the one pet-list check), so a
 * bad one stops start-up; generated pets are made the first time a scenario
 * is loaded, and the built scenario is shared by every store that loads it.
 */
export class ScenarioCatalogue {
  readonly #options: ScenarioCatalogueOptions;
  readonly #validate: ValidateFunction;
  readonly #checkPets: (pets: unknown, where: string) => Pet[];
  readonly #statuses: PetStatus[];
  readonly #fixtures = new Map<string, { source: string; fixture: Fixture }>();
  readonly #built = new Map<string, Scenario | Promise<Scenario>>();

  constructor(options: ScenarioCatalogueOptions) {
    this.#options = options;
    this.#validate = options.compiled.compileSchema(fixtureSchema);
    this.#checkPets = createPetListCheck(options.compiled);
    const statusSchema = options.compiled.document.components?.schemas?.PetStatus as { enum?: PetStatus[] } | undefined;
    this.#statuses = statusSchema?.enum ?? [];
  }

  /**
   * Checks a fixture and adds it under `name` (a later fixture may not take a
   * name already used by another source). `source` names it in messages.
   */
  add(name: string, fixture: unknown, source: string): string {
    if (!scenarioName.test(name)) {
      throw new FixtureError(`${source}: '${name}' cannot name a scenario (1-64 letters, digits, '.', '_' or '-')`);
    }
    if (!this.#validate(fixture)) {
      throw new FixtureError(`${source}: ${listDetails(fromAjvErrors(this.#validate.errors ?? [], 'fixture'))}`);
    }
    let checked = fixture as Fixture;
    try {
      // The checked pets, not the given ones: their ids are in the form the store looks them up by.
      if (checked.pets) checked = { ...checked, pets: this.#checkPets(checked.pets, source) };
    } catch (error) {
      if (error instanceof PetListError) throw new FixtureError(error.message);
      throw error;
    }
    const existing = this.#fixtures.get(name);
    if (existing && existing.source !== source) {
      throw new FixtureError(`${source}: scenario name '${name}' is already used by ${existing.source}`);
    }
    this.#fixtures.set(name, { source, fixture: checked });
    this.#built.delete(name);
    return name;
  }

  /** Every known scenario. */
  list(): ScenarioInfo[] {
    return [...this.#fixtures].map(([name, { source, fixture }]) => ({
      name,
      description: fixture.description,
      source,
    }));
  }

  has(name: string): boolean {
    return this.#fixtures.has(name);
  }

  /** The names, for messages: `default, empty, large`. */
  names(): string {
    return [...this.#fixtures.keys()].join(', ');
  }

  /** The scenario's pets, generated the first time if the fixture asks; the same object on later calls. */
  load(name: string): Scenario | Promise<Scenario> {
    const built = this.#built.get(name);
    if (built) return built;
    const entry = this.#fixtures.get(name);
    if (!entry) throw new FixtureError(`unknown scenario '${name}' (known: ${this.names()})`);
    const scenario = this.#build(name, entry.fixture);
    this.#built.set(name, scenario);
    if (scenario instanceof Promise) scenario.catch(() => this.#built.delete(name));
    return scenario;
  }

  #build(name: string, fixture: Fixture): Scenario | Promise<Scenario> {
    const { revisions } = this.#options;
    const literal = fixture.pets ?? [];
    if (!fixture.generate) return createScenario(name, literal, revisions);
    const highest = literal.reduce<number | bigint>((max, pet) => (pet.id > max ? pet.id : max), 0);
    const generated = this.#options.generatePets({
      count: fixture.generate.count ?? this.#options.pets,
      seed: fixture.generate.seed ?? this.#options.seed,
      categories: fixture.generate.categories,
      statuses: this.#statuses,
      firstId: typeof highest === 'bigint' ? highest + 1n : highest + 1,
    });
    // concat, not push(...): a spread of a million pets overflows the call stack.
    const withLiterals = (pets: Pet[]) => createScenario(name, literal.concat(pets), revisions);
    return generated instanceof Promise ? generated.then(withLiterals) : withLiterals(generated);
  }
}
