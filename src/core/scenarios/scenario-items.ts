import type { ApiModel, Resource } from '../model/describe-api.js';
import type { GeneratedId, GenerateItemsOptions, MadeItems } from '../seed/draw-items.js';
import { generatedFields } from '../seed/generated-fields.js';
import { isItemStream, type Item, type ItemStream } from '../store/item-snapshot.js';
import { FixtureError, type Fixture } from './fixture.js';

/** What a scenario's items are made from: the fixture, checked, and its literal items by collection. */
export interface ScenarioItemsInput {
  api: ApiModel;
  /** Names the scenario in messages: `scenario 'large' (fixtures/large.yaml)`. */
  where: string;
  fixture: Fixture;
  /** The fixture's checked items of each collection it gives (an empty list counts as given). */
  literal: Readonly<Record<string, readonly Item[]>>;
  /** `--pets` and `--seed`: what a `generate` block that says nothing asks for. */
  defaults: { pets: number; seed: number };
}

/**
 * The steps of making a scenario's items, as a generator: it yields each
 * batch it asks the item generator for, and is given the items made. Run by
 * `runScenarioItems` (synchronously where the generator answers at once).
 */
export type ScenarioItemsSteps = Generator<GenerateItemsOptions, ScenarioLists, MadeItems>;

/**
 * A scenario's items by collection: `items`, then for a collection whose
 * generated items came as a stream (a million pets), `streams` after them,
 * never made into objects all at once (see `ItemStream`).
 */
export interface ScenarioLists {
  items: Record<string, Item[]>;
  streams: Record<string, ItemStream>;
}

/** The resources with each one's references before it (a circle, or a reference to itself, is cut). */
function referenceOrder(resources: readonly Resource[]): Resource[] {
  const ordered: Resource[] = [];
  const visiting = new Set<Resource>();
  const visit = (resource: Resource) => {
    if (ordered.includes(resource) || visiting.has(resource)) return;
    visiting.add(resource);
    for (const reference of resource.references) {
      const target = resources.find((each) => each.name === reference.collection);
      if (target && target !== resource) visit(target);
    }
    ordered.push(resource);
  };
  for (const resource of resources) visit(resource);
  return ordered;
}

/** Whether a value names an item (null or absent names none). */
const names = (value: unknown): value is GeneratedId =>
  typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string';

/**
 * The items of a scenario, by collection, made from its fixture (see
 * fixture.ts) and the document's model:
 *
 * - the fixture's literal items of each collection it gives;
 * - with a `generate` block, every collection's generated items after them
 *   (`counts` per collection, else `count`, else `--pets`), ids following
 *   the highest literal one, each reference naming an item that exists (the
 *   collections referred to are made first);
 * - for a collection the fixture does not give, the items its other items
 *   refer to and it does not hold, generated with those ids: the kit's own
 *   scenarios, written for a document without `/categories`, serve one with
 *   it, every `categoryId` naming a category that exists.
 *
 * A reference into a collection the fixture gives that names no item of it
 * stops the scenario (`FixtureError`): the fixture's own data disagrees.
 */
export function* scenarioItems(input: ScenarioItemsInput): ScenarioItemsSteps {
  const { api, fixture, literal, defaults, where } = input;
  const items: Record<string, Item[]> = {};
  for (const resource of api.resources) items[resource.name] = [...(literal[resource.name] ?? [])];
  const streams: Record<string, ItemStream> = {};
  /** A collection's items as one list: a stream after them is made into objects, for a step that reads them all. */
  const listOf = (name: string): Item[] => {
    const stream = streams[name];
    if (stream) {
      items[name] = (items[name] ?? []).concat(stream.toArray() as Item[]);
      delete streams[name];
    }
    return items[name] ?? [];
  };
  const block = fixture.generate;
  const seed = block?.seed ?? defaults.seed;
  const idsOf = (resource: Resource): GeneratedId[] =>
    listOf(resource.name).map((item) => item[resource.idField] as GeneratedId);
  const batch = (resource: Resource, ids: { count: number; firstId?: GeneratedId; ids?: GeneratedId[] }) => {
    const fields = generatedFields(resource, block?.categories);
    const pools: Record<string, GeneratedId[]> = {};
    for (const reference of resource.references) {
      const target = api.resource(reference.collection);
      if (target) pools[reference.field] = idsOf(target);
    }
    return {
      collection: resource.name,
      idField: resource.idField,
      ...ids,
      seed,
      fields,
      ...(resource.references.length > 0 ? { pools } : {}),
    } as GenerateItemsOptions;
  };
  const order = referenceOrder(api.resources);

  if (block) {
    for (const resource of order) {
      const count = block.counts?.[resource.name] ?? block.count ?? defaults.pets;
      if (count === 0) continue;
      const held = items[resource.name] ?? [];
      let made: MadeItems;
      if (resource.idType === 'string') {
        // Texts counted from 1, skipping those a literal item has.
        const taken = new Set(idsOf(resource).map(String));
        const ids: string[] = [];
        for (let next = 1; ids.length < count; next++) if (!taken.has(String(next))) ids.push(String(next));
        made = yield batch(resource, { count, ids });
      } else {
        const highest = held.reduce<GeneratedId>((max, item) => {
          const id = item[resource.idField] as GeneratedId;
          return id > max ? id : max;
        }, 0);
        const firstId = typeof highest === 'bigint' ? highest + 1n : (highest as number) + 1;
        made = yield batch(resource, { count, firstId });
      }
      // Integer ids follow the literal ones, so a stream's items are written after them as they are made;
      // generated texts ("10" before "2") are sorted with the others.
      if (isItemStream(made) && resource.idType === 'integer') streams[resource.name] = made;
      // concat, not push(...): a spread of a million items overflows the call stack.
      else items[resource.name] = held.concat((isItemStream(made) ? made.toArray() : made) as Item[]);
    }
  }

  // The items referred to in a collection the fixture does not give: the referring ones first.
  for (const resource of [...order].reverse()) {
    if (Object.hasOwn(literal, resource.name)) continue;
    const referring = api.resources.flatMap((other) =>
      other.references
        .filter((reference) => reference.collection === resource.name)
        .map(({ field }) => ({ other, field })),
    );
    // A set of a million generated ids costs a third of a second: made only for a collection something refers to.
    if (referring.length === 0) continue;
    const held = new Set<unknown>(idsOf(resource));
    const wanted = new Set<GeneratedId>();
    for (const { other, field } of referring) {
      for (const item of listOf(other.name)) {
        const value = item[field];
        if (names(value) && !held.has(value)) wanted.add(value);
      }
    }
    if (wanted.size === 0) continue;
    const ids = [...wanted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const made = yield batch(resource, { count: ids.length, ids });
    items[resource.name] = listOf(resource.name).concat((isItemStream(made) ? made.toArray() : made) as Item[]);
  }

  // A reference into a collection the fixture gives names an item of it.
  for (const resource of api.resources) {
    for (const reference of resource.references) {
      if (!Object.hasOwn(literal, reference.collection)) continue;
      const target = api.resource(reference.collection);
      if (!target) continue;
      const held = new Set<unknown>(idsOf(target));
      for (const [index, item] of listOf(resource.name).entries()) {
        const value = item[reference.field];
        if (!names(value) || held.has(value)) continue;
        throw new FixtureError(
          `${where}: ${resource.name}[${index}].${reference.field} is ${String(value)}, which names no ${target.itemName}: the scenario's ${target.name} have ${target.idField}s ${[...held].slice(0, 10).map(String).join(', ') || '(none)'}${held.size > 10 ? ', …' : ''}`,
        );
      }
    }
  }
  return { items, streams };
}

/** Runs the steps, asking `generate` for each batch: at once where it answers at once, else as a promise. */
export function runScenarioItems(
  steps: ScenarioItemsSteps,
  generate: (options: GenerateItemsOptions) => MadeItems | Promise<MadeItems>,
): ScenarioLists | Promise<ScenarioLists> {
  let step = steps.next();
  while (!step.done) {
    const made = generate(step.value);
    if (made instanceof Promise) return finishLater(steps, made, generate);
    step = steps.next(made);
  }
  return step.value;
}

async function finishLater(
  steps: ScenarioItemsSteps,
  pending: Promise<MadeItems>,
  generate: (options: GenerateItemsOptions) => MadeItems | Promise<MadeItems>,
): Promise<ScenarioLists> {
  let step = steps.next(await pending);
  while (!step.done) step = steps.next(await generate(step.value));
  return step.value;
}
