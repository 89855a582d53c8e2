import type { ValidateFunction } from 'ajv';
import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import { isDocumentChecked, type CompiledDocument } from '../openapi/compile-document.js';
import type { GeneratePetsOptions } from '../seed/generate-pets.js';
import { createPetListCheck, PetListError } from '../store/check-pet-list.js';
import { createScenario, type RevisionCounter, type Scenario } from '../store/pet-store.js';
import type { ExactPet, PetStatus } from '../types/api-types.js';
import { FixtureError, fixtureSchema, type Fixture } from './fixture.js';

export interface ScenarioInfo {
  name: string;
  description: string;
  /** Where it came from: a file path, or `built-in`, or `object`. */
  source: string;
}

/** Makes Faker pets. Synchronous where Faker is already loaded (Node); a promise where it is loaded on demand. */
export type GeneratePets = (options: GeneratePetsOptions) => ExactPet[] | Promise<ExactPet[]>;

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

/** The kit's own fixtures (src/generated/default-fixtures.ts), which its tests check against its own document. */
const checkedFixtures = new WeakSet<object>();

/** Marks one of the kit's own fixtures as checked (see `ScenarioCatalogue.add`); only for fixtures the kit builds in. */
export function markFixtureChecked(fixture: Fixture): void {
  checkedFixtures.add(fixture);
}

/**
 * The scenarios a store can be loaded with. Fixtures are checked when they
 * are added (their format, then their pets by the one pet-list check), so a
 * bad one stops start-up; generated pets are made the first time a scenario
 * is loaded, and the built scenario is shared by every store that loads it.
 */
export class ScenarioCatalogue {
  readonly #options: ScenarioCatalogueOptions;
  #validate: ValidateFunction | undefined;
  #checkPets: ((pets: unknown, where: string) => ExactPet[]) | undefined;
  readonly #statuses: PetStatus[];
  readonly #fixtures = new Map<string, { source: string; fixture: Fixture }>();
  readonly #built = new Map<string, Scenario | Promise<Scenario>>();

  constructor(options: ScenarioCatalogueOptions) {
    this.#options = options;
    this.#statuses = documentStatuses(options.compiled.document);
  }

  /**
   * Checks a fixture and adds it under `name` (a later fixture may not take a
   * name already used by another source). `source` names it in messages. The
   * kit's own fixtures, served with the kit's own document, were checked
   * against it by its tests, and are not checked again at every start.
   */
  add(name: string, fixture: unknown, source: string): string {
    if (!scenarioName.test(name)) {
      throw new FixtureError(`${source}: '${name}' cannot name a scenario (1-64 letters, digits, '.', '_' or '-')`);
    }
    const trusted =
      typeof fixture === 'object' &&
      fixture !== null &&
      checkedFixtures.has(fixture) &&
      isDocumentChecked(this.#options.compiled.document);
    const checked = trusted ? (fixture as Fixture) : this.#check(fixture, source);
    const existing = this.#fixtures.get(name);
    if (existing && existing.source !== source) {
      throw new FixtureError(`${source}: scenario name '${name}' is already used by ${existing.source}`);
    }
    this.#fixtures.set(name, { source, fixture: checked });
    this.#built.delete(name);
    return name;
  }

  /** The fixture's format, then its pets by the one pet-list check; the validators are compiled on first use. */
  #check(fixture: unknown, source: string): Fixture {
    this.#validate ??= this.#options.compiled.compileSchema(fixtureSchema);
    if (!this.#validate(fixture)) {
      throw new FixtureError(`${source}: ${listDetails(fromAjvErrors(this.#validate.errors ?? [], 'fixture'))}`);
    }
    const given = fixture as Fixture;
    if (!given.pets) return given;
    this.#checkPets ??= createPetListCheck(this.#options.compiled);
    try {
      // The checked pets, not the given ones: their ids are in the form the store looks them up by.
      return { ...given, pets: this.#checkPets(given.pets, source) };
    } catch (error) {
      if (error instanceof PetListError) throw new FixtureError(error.message);
      throw error;
    }
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
    const asked = generateOptions(fixture, this.#options, this.#statuses);
    if (!asked) return createScenario(name, literal, revisions);
    const generated = this.#options.generatePets(asked);
    // concat, not push(...): a spread of a million pets overflows the call stack.
    const withLiterals = (pets: ExactPet[]) => createScenario(name, literal.concat(pets), revisions);
    return generated instanceof Promise ? generated.then(withLiterals) : withLiterals(generated);
  }
}

/**
 * What the generator is asked for a fixture's `generate` block (undefined
 * without one): its count and seed, or the mock's (`--pets`, `--seed`); the
 * document's statuses; ids after the highest literal one. Also what
 * `npm run generate` asks to make the default scenario ahead.
 */
export function generateOptions(
  fixture: Fixture,
  defaults: { pets: number; seed: number },
  statuses: readonly PetStatus[],
): GeneratePetsOptions | undefined {
  if (!fixture.generate) return undefined;
  const highest = (fixture.pets ?? []).reduce<number | bigint>((max, pet) => (pet.id > max ? pet.id : max), 0);
  return {
    count: fixture.generate.count ?? defaults.pets,
    seed: fixture.generate.seed ?? defaults.seed,
    categories: fixture.generate.categories,
    statuses,
    firstId: typeof highest === 'bigint' ? highest + 1n : highest + 1,
  };
}

/** The statuses a generated pet may have: the document's `PetStatus` enum, in its order. */
export function documentStatuses(document: CompiledDocument['document']): PetStatus[] {
  const statusSchema = document.components?.schemas?.PetStatus as { enum?: PetStatus[] } | undefined;
  return statusSchema?.enum ?? [];
}
