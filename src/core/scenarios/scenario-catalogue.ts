import type { ValidateFunction } from 'ajv';
import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import type { ApiModel } from '../model/describe-api.js';
import { isDocumentChecked, type CompiledDocument } from '../openapi/compile-document.js';
import type { GenerateItems, GenerateItemsOptions, MadeItems } from '../seed/draw-items.js';
import { setOwnField } from '../support/own-field.js';
import { createItemListCheck, ItemListError } from '../store/check-item-list.js';
import { isItemStream, type CollectionShape, type Item } from '../store/item-snapshot.js';
import type { RevisionCounter } from '../store/revision-counter.js';
import { createScenario, type Scenario } from '../store/scenario.js';
import { FixtureError, fixtureSchema, fixtureSettings, type Fixture } from './fixture.js';
import { runScenarioItems, scenarioItems } from './scenario-items.js';

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
  /** How many items of each collection a `generate` block without a `count` makes (`--pets`). */
  pets: number;
  /** The seed of a `generate` block without its own (`--seed`). */
  seed: number;
  generateItems: GenerateItems;
  /**
   * Fixture keys read as another collection of the document, by key
   * (`{ pets: 'animals' }`, `--fixture-collection pets=animals`): how the
   * kit's scenarios, whose items are `pets`, serve a document that renamed
   * them. Default none.
   */
  fixtureCollections?: Readonly<Record<string, string>>;
}

const scenarioName = /^[\w.-]{1,64}$/;

/** The kit's own fixtures (src/generated/default-fixtures.ts), which its tests check against its own document. */
const kitFixtures = new WeakSet<object>();

/** Marks one of the kit's own fixtures (see `ScenarioCatalogue.add`); only for fixtures the kit builds in. */
export function markFixtureChecked(fixture: Fixture): void {
  kitFixtures.add(fixture);
}

/** A fixture the catalogue holds: checked, or one of the kit's own waiting to be checked against another document. */
interface Entry {
  source: string;
  fixture: Fixture;
  /** Whether it is checked against the document (the kit's own with the kit's document need not be). */
  checked: boolean;
  /** Why it cannot serve the document, once a check said so. */
  problem: FixtureError | undefined;
}

/** `pets and categories`, `animals`. */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? 'none') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The scenarios a store can be loaded with. A fixture of the user's is
 * checked against the document when it is added (its collections, its
 * format, then each collection's items by the one item-list check), so a bad
 * one stops start-up. The kit's own fixtures are checked against the kit's
 * document by its tests, and against another document only when one is asked
 * for (started with, switched to): a built-in scenario that cannot serve a
 * user's document is refused then, naming what it lacks, not at every start.
 * Items are made the first time a scenario is loaded (see scenario-items.ts),
 * and the built scenario is shared by every store that loads it.
 */
export class ScenarioCatalogue {
  readonly #options: ScenarioCatalogueOptions;
  #validate: ValidateFunction | undefined;
  readonly #checkItems = new Map<string, (items: unknown, where: string) => Item[]>();
  readonly #entries = new Map<string, Entry>();
  readonly #built = new Map<string, Scenario | Promise<Scenario>>();

  constructor(options: ScenarioCatalogueOptions) {
    this.#options = options;
    for (const [key, collection] of Object.entries(options.fixtureCollections ?? {})) {
      if (fixtureSettings.includes(key)) throw new FixtureError(`fixture key '${key}' is no collection to map`);
      if (!options.api.resource(collection)) {
        throw new FixtureError(
          `fixture key '${key}' is mapped onto '${collection}', which is no collection of ${options.compiled.source} (its collections: ${listed(options.api.resources.map((each) => each.name))})`,
        );
      }
    }
  }

  /**
   * Adds a fixture under `name` (a later fixture may not take a name already
   * used by another source), checked against the document unless it is one
   * of the kit's own (see the class). `source` names it in messages.
   */
  add(name: string, fixture: unknown, source: string): string {
    if (!scenarioName.test(name)) {
      throw new FixtureError(`${source}: '${name}' cannot name a scenario (1-64 letters, digits, '.', '_' or '-')`);
    }
    const existing = this.#entries.get(name);
    if (existing && existing.source !== source) {
      throw new FixtureError(`${source}: scenario name '${name}' is already used by ${existing.source}`);
    }
    const kit = typeof fixture === 'object' && fixture !== null && kitFixtures.has(fixture);
    const mapped = this.#mapped(fixture, name, source);
    const trusted = kit && mapped === fixture && isDocumentChecked(this.#options.compiled.document);
    const entry: Entry = trusted
      ? { source, fixture: fixture as Fixture, checked: true, problem: undefined }
      : kit
        ? { source, fixture: mapped as Fixture, checked: false, problem: undefined }
        : { source, fixture: this.#check(mapped, name, source), checked: true, problem: undefined };
    this.#entries.set(name, entry);
    this.#built.delete(name);
    return name;
  }

  /** The fixture with its keys read as the collections `fixtureCollections` maps them onto (the same object if none). */
  #mapped(fixture: unknown, name: string, source: string): unknown {
    const map = this.#options.fixtureCollections;
    if (!map || typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) return fixture;
    const keys = Object.keys(fixture);
    if (!keys.some((key) => Object.hasOwn(map, key))) return fixture;
    const renamed: Record<string, unknown> = {};
    for (const key of keys) {
      const to = Object.hasOwn(map, key) ? (map[key] as string) : key;
      if (Object.hasOwn(renamed, to)) {
        throw new FixtureError(
          `scenario '${name}' (${source}) gives items of '${to}' twice: under '${to}' and under a key mapped onto it`,
        );
      }
      setOwnField(renamed, to, (fixture as Record<string, unknown>)[key]);
    }
    const generate = renamed.generate as { counts?: Record<string, unknown> } | undefined;
    if (generate?.counts && typeof generate.counts === 'object') {
      const counts: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(generate.counts))
        setOwnField(counts, Object.hasOwn(map, key) ? (map[key] as string) : key, value);
      renamed.generate = { ...generate, counts };
    }
    return renamed;
  }

  /**
   * A fixture checked against the document: every collection it names is one
   * of the document's, its format, then each collection's items by the one
   * item-list check (validators compiled on first use).
   */
  #check(fixture: unknown, name: string, source: string): Fixture {
    const { compiled, api } = this.#options;
    const collections = api.resources.map((resource) => resource.name);
    if (typeof fixture === 'object' && fixture !== null && !Array.isArray(fixture)) {
      const strangers = Object.keys(fixture).filter((key) => !fixtureSettings.includes(key) && !api.resource(key));
      if (strangers.length > 0) {
        const [first] = strangers as [string];
        const onto = collections.length === 1 ? collections[0] : 'COLLECTION';
        throw new FixtureError(
          `scenario '${name}' (${source}) gives items of ${listed(strangers.map((key) => `'${key}'`))}, which ${strangers.length === 1 ? 'is no collection' : 'are no collections'} of ${compiled.source} (its collections: ${listed(collections)}): write them under a collection of the document, or map them onto one (--fixture-collection ${first}=${onto}; fixtureCollections: { ${first}: '${onto}' } in-process)`,
        );
      }
    }
    this.#validate ??= compiled.compileSchema(fixtureSchema(collections));
    if (!this.#validate(fixture)) {
      throw new FixtureError(`${source}: ${listDetails(fromAjvErrors(this.#validate.errors ?? [], 'fixture'))}`);
    }
    const checked: Fixture = { ...(fixture as Fixture) };
    for (const resource of api.resources) {
      const items = checked[resource.name];
      if (items === undefined) continue;
      try {
        // The checked items, not the given ones: their ids are in the form the store looks them up by.
        checked[resource.name] = this.#itemCheck(resource.name)(items, source);
      } catch (error) {
        if (error instanceof ItemListError) throw new FixtureError(error.message);
        throw error;
      }
    }
    return checked;
  }

  #itemCheck(collection: string): (items: unknown, where: string) => Item[] {
    let check = this.#checkItems.get(collection);
    if (!check) {
      const resource = this.#options.api.resource(collection);
      if (!resource) throw new Error(`no collection '${collection}'`);
      check = createItemListCheck(this.#options.compiled, resource);
      this.#checkItems.set(collection, check);
    }
    return check;
  }

  /** Every known scenario. */
  list(): ScenarioInfo[] {
    return [...this.#entries].map(([name, { source, fixture }]) => ({
      name,
      description: fixture.description,
      source,
    }));
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The names, for messages: `default, empty, large`. */
  names(): string {
    return [...this.#entries.keys()].join(', ');
  }

  /**
   * The scenario's items, made the first time (see scenario-items.ts); the
   * same object on later calls. Throws `FixtureError` for an unknown name,
   * and for one of the kit's scenarios that cannot serve the document.
   */
  load(name: string): Scenario | Promise<Scenario> {
    const built = this.#built.get(name);
    if (built) return built;
    const entry = this.#entries.get(name);
    if (!entry) throw new FixtureError(`unknown scenario '${name}' (known: ${this.names()})`);
    if (entry.problem) throw entry.problem;
    if (!entry.checked) {
      try {
        entry.fixture = this.#check(entry.fixture, name, entry.source);
        entry.checked = true;
      } catch (error) {
        if (error instanceof FixtureError) {
          entry.problem = error.message.includes(`scenario '${name}'`)
            ? error
            : new FixtureError(`scenario '${name}' cannot serve ${this.#options.compiled.source}: ${error.message}`);
          throw entry.problem;
        }
        throw error;
      }
    }
    const scenario = this.#build(name, entry);
    this.#built.set(name, scenario);
    if (scenario instanceof Promise) scenario.catch(() => this.#built.delete(name));
    return scenario;
  }

  #build(name: string, entry: Entry): Scenario | Promise<Scenario> {
    const { revisions, shapes, api, compiled } = this.#options;
    const { fixture, source } = entry;
    const where = `scenario '${name}' (${source})`;
    const literal: Record<string, readonly Item[]> = {};
    for (const resource of api.resources) {
      const items = fixture[resource.name];
      if (Array.isArray(items)) literal[resource.name] = items as Item[];
    }
    // Generated items are checked against a document of the user's (a format or bound Faker cannot meet).
    const checkMade = !isDocumentChecked(compiled.document);
    const generate = (options: GenerateItemsOptions) => {
      let made: MadeItems | Promise<MadeItems>;
      try {
        made = this.#options.generateItems(options);
      } catch (error) {
        throw new FixtureError(`${where}: ${(error as Error).message}`);
      }
      const checked = (items: MadeItems): MadeItems => {
        if (!checkMade) return items;
        try {
          return this.#itemCheck(options.collection)(
            isItemStream(items) ? items.toArray() : items,
            `${where}, its generated ${options.collection}`,
          );
        } catch (error) {
          if (error instanceof ItemListError) {
            throw new FixtureError(
              `${error.message} (the kit's generator cannot fill these fields as the document asks: give the scenario literal ${options.collection})`,
            );
          }
          throw error;
        }
      };
      // A generator that fails later (a Faker chunk that cannot be loaded) is the mock's failure, not the fixture's.
      return made instanceof Promise ? made.then(checked) : checked(made);
    };
    const steps = scenarioItems({
      api,
      where,
      fixture,
      literal,
      defaults: { pets: this.#options.pets, seed: this.#options.seed },
    });
    const lists = runScenarioItems(steps, generate);
    return lists instanceof Promise
      ? lists.then(({ items, streams }) => createScenario(name, items, shapes, revisions, streams))
      : createScenario(name, lists.items, shapes, revisions, lists.streams);
  }
}
