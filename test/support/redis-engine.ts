import { createRevisionCounter } from '../../src/core/store/revision-counter.js';
import type { CollectionShape, Item } from '../../src/core/store/item-snapshot.js';
import { createScenario, type Scenario } from '../../src/core/store/scenario.js';
import type { EngineOutcome, RedisEngineOptions, StoreAction } from '../../src/redis/engine-types.js';
import { RedisEngine } from '../../src/redis/redis-engine.js';

/**
 * Two collections that are not the kit's pets, so that the engine is shown
 * to serve any document: animals with integer ids (filtered by `status` and
 * by `__proto__`, a field name that must stay a plain key), and keepers with
 * text ids.
 */
export const animals: CollectionShape = {
  name: 'animals',
  itemName: 'animal',
  idField: 'id',
  idType: 'integer',
  indexed: ['status', '__proto__'],
};
export const keepers: CollectionShape = {
  name: 'keepers',
  itemName: 'keeper',
  idField: 'code',
  idType: 'string',
  indexed: ['zone'],
};
export const shapes = [animals, keepers];

const revisions = createRevisionCounter();

export function scenarioOf(name: string, data: Record<string, readonly Item[]>): Scenario {
  return createScenario(name, data, shapes, revisions);
}

export const zoo = scenarioOf('zoo', {
  animals: [
    { id: 1, name: 'Ada', status: 'available' },
    { id: 2, name: 'Bo', status: 'sold' },
    { id: 3, name: 'Cy', status: 'available' },
  ],
  keepers: [{ code: 'k1', zone: 'north' }],
});

let prefixes = 0;

/** A prefix of its own for each engine group, so that tests sharing a server never see each other's keys. */
export function freshPrefix(): string {
  return `t${process.pid}-${++prefixes}`;
}

/** Opens an engine on `url` with the zoo scenario and seed 1, and waits until the server answered. */
export async function openEngine(url: string, options: Partial<RedisEngineOptions> = {}): Promise<RedisEngine> {
  const engine = await RedisEngine.open({
    url,
    prefix: options.prefix ?? freshPrefix(),
    collections: shapes,
    startScenario: zoo,
    seed: 1,
    ...options,
  });
  await engine.whenReady();
  return engine;
}

/** One authenticated request of the API doing `action` in `session` (the default one unless named). */
export function act(engine: RedisEngine, action: StoreAction | undefined, session = 'default'): Promise<EngineOutcome> {
  return engine.request({ session, create: true, operationId: 'anyOperation', now: Date.UTC(2026, 0, 1), action });
}

/** The result of a request that ran its action, or a failure naming what happened instead. */
export async function result(engine: RedisEngine, action: StoreAction, session = 'default') {
  const outcome = await act(engine, action, session);
  if (outcome.kind !== 'done' || !outcome.result) throw new Error(`the action did not run: ${outcome.kind}`);
  return outcome.result;
}

export async function items(
  engine: RedisEngine,
  action: Omit<Extract<StoreAction, { kind: 'list' }>, 'kind'>,
  session?: string,
) {
  const done = await result(engine, { kind: 'list', ...action }, session);
  if (done.kind !== 'list') throw new Error('not a list');
  return done.items;
}

export async function created(
  engine: RedisEngine,
  collection: string,
  fields: Record<string, unknown>,
  session?: string,
) {
  const done = await result(engine, { kind: 'create', collection, fields }, session);
  if (done.kind !== 'create') throw new Error('not a create');
  return done.item;
}
