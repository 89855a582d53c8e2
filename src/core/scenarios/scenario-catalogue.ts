import type { ValidateFunction } from 'ajv';
import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import type { ApiModel } from '../model/describe-api.js';
import { isDocumentChecked, type CompiledDocument } from '../openapi/compile-document.js';
import type { GeneratePets, GeneratePetsOptions, GeneratedFields } from '../seed/draw-pets.js';
import { createItemListCheck, ItemListError } from '../store/check-item-list.js';
import type { CollectionShape, Item } from '../store/item-snapshot.js';
import type { RevisionCounter } from '../store/revision-counter.js';
import { createScenario, type Scenario } from '../store/scenario.js';
import type { ExactPet, PetStatus } from '../types/api-types.js';
import { FixtureError, fixtureSchema, type Fixture } from './fixture.js';

export interface ScenarioInfo {
  name: string;
  description: string;
  /** Where it came from: a file path, or `built-in`, or `object`. */
  source: string;
}

export interface ScenarioCatalogueOptions {
  compiled: CompiledDocument;
  /** The document's resources (see describe-api.ts): a fixture holds items of each, by name. */
  api: ApiModel;
  shapes: readonly CollectionShape[];
  revisions: RevisionCounter;
  /** How many items a `generate` block without a `count` makes (`--pets`). */
  pets: number;
  /** The seed of a `generate` block without its own (`--seed`). */
  seed: number;
  generatePets: GeneratePets;
}

/**
 * What the generator fills in the document's first collection, read from its
 * item schema: the id, the first required text (a name), the first required
 * integer (drawn from 1..categories), and the first state (an enumeration),
 * whose values it draws in the document's order. Undefined when the items
 * have no such text and integer besides the id.
 */
export function generationTarget(api: ApiModel): { fields: GeneratedFields; statuses: PetStatus[] } | undefined {
  const [resource] = api.resources;
  if (!resource) return undefined;
  const required = (type: string) =>
    resource.required.find((field) => field !== resource.idField && resource.properties.get(field)?.type === type);
  const name = required('string');
  const category = required('integer');
  if (name === undefined || category === undefined) return undefined;
  const status = resource.states[0];
  const values = status === undefined ? [] : (resource.properties.get(status)?.enum ?? []);
  return { fields: { id: resource.idField, name, category, status }, statuses: values as PetStatus[] };
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
 * are added (their format, then each collection's items by the one
 * item-list check), so a bad one stops start-up; generated items are made
 * the first time a scenario is loaded, and the built scenario is shared by
 * every store that loads it.
 */
export class ScenarioCatalogue {
  readonly #options: ScenarioCatalogueOptions;
  #validate: ValidateFunction | undefined;
  readonly #checkItems = new Map<string, (items: unknown, where: string) => Item[]>();
  readonly #fixtures = new Map<string, { source: string; fixture: Fixture }>();
  readonly #built = new Map<string, Scenario | Promise<Scenario>>();

  constructor(options: ScenarioCatalogueOptions) {
    this.#options = options;
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

  /** The fixture's format, then each collection's items by the one item-list check; validators compiled on first use. */
  #check(fixture: unknown, source: string): Fixture {
    const { compiled, api } = this.#options;
    this.#validate ??= compiled.compileSchema(fixtureSchema(api.resources.map((resource) => resource.name)));
    if (!this.#validate(fixture)) {
      throw new FixtureError(`${source}: ${listDetails(fromAjvErrors(this.#validate.errors ?? [], 'fixture'))}`);
    }
    const checked: Fixture = { ...(fixture as Fixture) };
    for (const resource of api.resources) {
      const items = checked[resource.name];
      if (items === undefined) continue;
      let check = this.#checkItems.get(resource.name);
      if (!check) {
        check = createItemListCheck(compiled, resource);
        this.#checkItems.set(resource.name, check);
      }
      try {
        // The checked items, not the given ones: their ids are in the form the store looks them up by.
        checked[resource.name] = check(items, source);
      } catch (error) {
        if (error instanceof ItemListError) throw new FixtureError(error.message);
        throw error;
      }
    }
    return checked;
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

  /** The scenario's items, generated the first time if the fixture asks; the same object on later calls. */
  load(name: string): Scenario | Promise<Scenario> {
    const built = this.#built.get(name);
    if (built) return built;
    const entry = this.#fixtures.get(name);
    if (!entry) throw new FixtureError(`unknown scenario '${name}' (known: ${this.names()})`);
    const scenario = this.#build(name, entry.fixture, entry.source);
    this.#built.set(name, scenario);
    if (scenario instanceof Promise) scenario.catch(() => this.#built.delete(name));
    return scenario;
  }

  #build(name: string, fixture: Fixture, source: string): Scenario | Promise<Scenario> {
    const { revisions, shapes, api } = this.#options;
    const literal: Record<string, readonly Item[]> = {};
    for (const resource of api.resources) {
      const items = fixture[resource.name];
      if (Array.isArray(items)) literal[resource.name] = items as Item[];
    }
    if (!fixture.generate) return createScenario(name, literal, shapes, revisions);
    const target = generationTarget(api);
    const [primary] = api.resources;
    if (!target || !primary) {
      throw new FixtureError(
        `${source}: 'generate' fills a required text and a required integer of the first collection's items, and ${primary ? `the items of '${primary.name}' have no such pair` : 'the document has no collection'}`,
      );
    }
    const asked = generateOptions(fixture, this.#options, target, (literal[primary.name] ?? []) as ExactPet[]);
    const generated = this.#options.generatePets(asked);
    // concat, not push(...): a spread of a million items overflows the call stack.
    const withLiterals = (pets: ExactPet[]) =>
      createScenario(
        name,
        { ...literal, [primary.name]: ((literal[primary.name] ?? []) as Item[]).concat(pets as Item[]) },
        shapes,
        revisions,
      );
    return generated instanceof Promise ? generated.then(withLiterals) : withLiterals(generated);
  }
}

/**
 * What the generator is asked for a fixture's `generate` block: its count
 * and seed, or the mock's (`--pets`, `--seed`); the fields and state values
 * the document gives (`generationTarget`); ids after the highest literal
 * one. Also what `npm run generate` asks to make the default scenario ahead.
 */
export function generateOptions(
  fixture: Fixture,
  defaults: { pets: number; seed: number },
  target: { fields: GeneratedFields; statuses: readonly PetStatus[] },
  literal: readonly ExactPet[],
): GeneratePetsOptions {
  const idField = target.fields.id;
  const highest = literal.reduce<number | bigint>((max, pet) => {
    const id = (pet as Record<string, unknown>)[idField] as number | bigint;
    return id > max ? id : max;
  }, 0);
  const block = fixture.generate ?? {};
  return {
    count: block.count ?? defaults.pets,
    seed: block.seed ?? defaults.seed,
    categories: block.categories,
    statuses: target.statuses,
    fields: target.fields,
    firstId: typeof highest === 'bigint' ? highest + 1n : highest + 1,
  };
}
