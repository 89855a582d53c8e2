import type { Faker } from '@faker-js/faker';
import { int64Max, normaliseInt64, type Int64 } from '../json/exact-json.js';
import { setOwnField } from '../support/own-field.js';
import type { ItemStream } from '../store/item-snapshot.js';

/** An item as the generator makes it: its fields by name (int64 ids a number up to 2^53−1, a bigint beyond). */
export type GeneratedItem = Readonly<Record<string, unknown>>;

/** An id a generated item gets, or a reference draws: an `Int64` for integer ids, a text for string ids. */
export type GeneratedId = Int64 | string;

/** How the generator fills one field of an item, read from the item schema (see generated-fields.ts). */
export type FieldFill =
  /** A state (an enumeration): drawn by weight in the document's order; an optional one is left out now and then. */
  | { kind: 'state'; values: readonly unknown[]; optional: boolean }
  /** A text: a pet's name (Faker's `animal.petName`), or a value of its `format` (date-time, email, uuid, uri...). */
  | { kind: 'text'; format?: string; minLength?: number; maxLength?: number }
  /** An integer that refers to nothing, drawn from `min` to `max`. */
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'boolean' }
  /** The id of an item of `collection`, drawn from those that exist (`GenerateItemsOptions.pools`). */
  | { kind: 'reference'; collection: string; optional: boolean }
  /** An empty array or object: the least a required field of that type can be. */
  | { kind: 'empty'; type: 'array' | 'object' };

export interface GeneratedField {
  name: string;
  fill: FieldFill;
}

export interface GenerateItemsOptions {
  /** The collection the items are for (`pets`): messages name it. */
  collection: string;
  /** The field that identifies an item (`id`). */
  idField: string;
  /** How many items, numbered one by one from `firstId`; ignored when `ids` is given. */
  count: number;
  /** The id of the first item (default 1); the others follow one by one. */
  firstId?: Int64;
  /** The ids of the items to make instead, in order: items that others already refer to. */
  ids?: readonly GeneratedId[];
  seed: number;
  /** The fields each item gets besides its id, in the item's order (read from the document: generated-fields.ts). */
  fields: readonly GeneratedField[];
  /** The ids each reference field draws from, by field name: the items that exist in its collection. */
  pools?: Readonly<Record<string, readonly GeneratedId[]>>;
}

/** The id `index` places after `first`, as an Int64 (a bigint only beyond 2^53−1). */
function idAt(first: Int64, index: number): Int64 {
  if (typeof first === 'number' && first + index <= Number.MAX_SAFE_INTEGER) return first + index;
  const id = BigInt(first) + BigInt(index);
  if (id > int64Max) throw new RangeError(`generated ids would go beyond the int64 maximum ${int64Max}`);
  return normaliseInt64(id);
}

/** How often each state value is drawn, by its position in the enum; then 10 each; an optional state's absence 5. */
const stateWeights = [55, 25, 15];
const laterStateWeight = 10;
const absentWeight = 5;

/** Dates are drawn within fixed bounds, never around today, so that the same seed gives the same items. */
const earliestDate = '2020-01-01T00:00:00.000Z';
const latestDate = '2029-12-31T00:00:00.000Z';

/** A text of a format Faker can make; a pet's name otherwise. */
function textOf(faker: Faker, fill: Extract<FieldFill, { kind: 'text' }>): string {
  let text: string;
  switch (fill.format) {
    case 'date-time':
      text = faker.date.between({ from: earliestDate, to: latestDate }).toISOString();
      break;
    case 'date':
      text = faker.date.between({ from: earliestDate, to: latestDate }).toISOString().slice(0, 10);
      break;
    case 'email':
      text = faker.internet.email();
      break;
    case 'uuid':
      text = faker.string.uuid();
      break;
    case 'uri':
    case 'url':
      text = faker.internet.url();
      break;
    default:
      text = faker.animal.petName();
  }
  while (fill.minLength !== undefined && text.length < fill.minLength) text = `${text} ${faker.animal.petName()}`;
  return fill.maxLength === undefined ? text : text.slice(0, fill.maxLength);
}

/** One field's value (a state's is drawn before the others), or undefined to leave it out. */
function valueOf(
  faker: Faker,
  field: GeneratedField,
  pools: GenerateItemsOptions['pools'],
  collection: string,
): unknown {
  const { fill } = field;
  switch (fill.kind) {
    case 'text':
      return textOf(faker, fill);
    case 'integer':
      return faker.number.int({ min: fill.min, max: fill.max });
    case 'number':
      return faker.number.float({ min: fill.min, max: fill.max, fractionDigits: 2 });
    case 'boolean':
      return faker.datatype.boolean();
    case 'reference': {
      const pool = pools?.[field.name] ?? [];
      if (pool.length > 0) return faker.helpers.arrayElement(pool);
      if (fill.optional) return undefined;
      throw new RangeError(
        `the items of ${collection} require '${field.name}', which refers to ${fill.collection}, and ${fill.collection} has no item to refer to`,
      );
    }
    case 'empty':
      return fill.type === 'array' ? [] : {};
    case 'state':
      return undefined;
  }
}

/** A state field's name, its values, and how each value (or its absence) is drawn by weight. */
interface DrawnState {
  name: string;
  values: readonly unknown[];
  choices: Array<{ value: unknown; weight: number }>;
}

/** The state fields of the items, each with its weighted choices. */
function statesOf(fields: readonly GeneratedField[]): DrawnState[] {
  return fields.flatMap((field) => {
    if (field.fill.kind !== 'state') return [];
    const { values, optional } = field.fill;
    const choices = values.map((value, index) => ({
      value: value as unknown,
      weight: stateWeights[index] ?? laterStateWeight,
    }));
    if (optional) choices.push({ value: undefined, weight: absentWeight });
    return [{ name: field.name, values, choices }];
  });
}

/**
 * Seeds Faker, then hands each item to `visit` as it is drawn: a new object
 * each, or with `reused` one object written over for every item, a state
 * left out then a field that holds `undefined` (for a reader that keeps only
 * the values, within `visit`).
 */
function drawEach(
  faker: Faker,
  options: GenerateItemsOptions,
  visit: (item: Record<string, unknown>) => void,
  reused?: Record<string, unknown>,
): void {
  const { count, seed, firstId = 1, fields, idField, ids, pools, collection } = options;
  // Seeded right before a synchronous run, so the shared instance gives the same items every time.
  faker.seed(seed);
  const states = statesOf(fields);
  // Where each field's state is drawn into (-1: not a state), in the item's order.
  const stateAt = fields.map((field) => states.findIndex((state) => state.name === field.name));
  const total = ids ? ids.length : count;
  const drawn: unknown[] = [];
  for (let index = 0; index < total; index++) {
    for (let at = 0; at < states.length; at++) {
      drawn[at] = faker.helpers.weightedArrayElement((states[at] as DrawnState).choices);
    }
    const item: Record<string, unknown> = reused ?? {};
    setOwnField(item, idField, ids ? ids[index] : idAt(firstId, index));
    for (let at = 0; at < fields.length; at++) {
      const field = fields[at] as GeneratedField;
      const state = stateAt[at] as number;
      const value = state >= 0 ? drawn[state] : valueOf(faker, field, pools, collection);
      if (value !== undefined || reused) setOwnField(item, field.name, value);
    }
    visit(item);
  }
}

/** How many items a list holds: `ids` when given, else `count`. */
const totalOf = (options: GenerateItemsOptions): number => (options.ids ? options.ids.length : options.count);

/**
 * Realistic items from Faker with a fixed seed, their fields read from the
 * document (generated-fields.ts): the same options give the same items, byte
 * for byte, on every run. Ids follow one by one (or are the `ids` given);
 * texts are names, states are drawn by weight (every value appears once
 * there are at least as many items as values, and about one item in twenty
 * leaves an optional state out, as the document allows), references name
 * items that exist. The states are drawn first, then the other fields in the
 * item's order. Faker is given, so that whoever calls decides when it is
 * loaded (see generate-items.ts, and create-node-mock.ts).
 */
export function drawItems(faker: Faker, options: GenerateItemsOptions): GeneratedItem[] {
  const items: Array<Record<string, unknown>> = [];
  drawEach(faker, options, (item) => items.push(item));
  const states = statesOf(options.fields);
  const total = totalOf(options);
  // Make every value of each state appear: give each missing one to the first item whose value another item
  // shares, or else to an item without one. Deterministic, so the same seed still gives the same items.
  for (const { name, values } of states) {
    if (total < values.length) continue;
    const counts = new Map<unknown, number>();
    for (const item of items) counts.set(item[name], (counts.get(item[name]) ?? 0) + 1);
    for (const value of values.filter((each) => !counts.has(each))) {
      const donor =
        items.find((item) => (counts.get(item[name]) ?? 0) > 1) ?? items.find((item) => item[name] === undefined);
      if (!donor) break;
      counts.set(donor[name], (counts.get(donor[name]) ?? 0) - 1);
      setOwnField(donor, name, value);
      counts.set(value, 1);
    }
  }
  return items;
}

/**
 * `drawItems`' items drawn one at a time each time they are read, none kept:
 * a million pets written straight into a snapshot's columns never all exist
 * as objects, so they neither survive V8's young collections nor grow its
 * heap. Where a state value was drawn by no item (a list `drawItems` then
 * changes), `each` says so, and `toArray()` gives the list.
 */
class DrawnItems implements ItemStream {
  readonly length: number;
  readonly #faker: Faker;
  readonly #options: GenerateItemsOptions;

  constructor(faker: Faker, options: GenerateItemsOptions) {
    this.#faker = faker;
    this.#options = options;
    this.length = totalOf(options);
  }

  each(visit: (item: GeneratedItem) => void): boolean {
    const states = statesOf(this.#options.fields);
    // Each state's values no item has drawn yet: once every one has been, the items are not looked at again.
    const undrawn = states.map(({ values }) => new Set<unknown>(values));
    let left = undrawn.reduce((sum, values) => sum + values.size, 0);
    drawEach(
      this.#faker,
      this.#options,
      (item) => {
        for (let at = 0; left > 0 && at < states.length; at++) {
          if ((undrawn[at] as Set<unknown>).delete(item[(states[at] as DrawnState).name])) left--;
        }
        visit(item);
      },
      {},
    );
    // Every value of each state drawn (or fewer items than values): the list `drawItems` gives, unchanged.
    return states.every(({ values }, index) => this.length < values.length || undrawn[index]?.size === 0);
  }

  toArray(): GeneratedItem[] {
    return drawItems(this.#faker, this.#options);
  }
}

/** Above this many items, the kit's generator hands them out as a stream (`drawItemsLazily`) rather than a list. */
export const itemsStreamedAbove = 10_000;

/**
 * `drawItems`' items: a list, or for more than `itemsStreamedAbove` a stream
 * that draws them again each time it is read (a store writes them straight
 * into its columns), the same items either way.
 */
export function drawItemsLazily(faker: Faker, options: GenerateItemsOptions): GeneratedItem[] | ItemStream {
  return totalOf(options) > itemsStreamedAbove ? new DrawnItems(faker, options) : drawItems(faker, options);
}

/** Made items: a list, or a stream (see `ItemStream`) that makes them one at a time whenever it is read. */
export type MadeItems = readonly GeneratedItem[] | ItemStream;

/**
 * Makes Faker items. Synchronous where Faker is already loaded (Node); a
 * promise where it is loaded on demand. The kit's own hands out a large list
 * as a stream; a generator of yours may return a list.
 */
export type GenerateItems = (options: GenerateItemsOptions) => MadeItems | Promise<MadeItems>;
