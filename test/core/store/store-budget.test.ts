import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/core/sessions/session.js';
import { SessionRegistry } from '../../../src/core/sessions/session-registry.js';
import { silentLogger } from '../../../src/core/support/mock-logger.js';
import { jsonBytes } from '../../../src/core/store/item-snapshot.js';
import { MemoryStore } from '../../../src/core/store/memory-store.js';
import { createRevisionCounter } from '../../../src/core/store/revision-counter.js';
import { createScenario } from '../../../src/core/store/scenario.js';
import { StoreBudget } from '../../../src/core/store/store-budget.js';
import { StoreBytesFullError } from '../../../src/core/store/store-errors.js';
import { petShape } from '../../support/kit-model.js';

const revisions = createRevisionCounter();
const scenario = createScenario(
  'shared',
  { [petShape.name]: [{ [petShape.idField]: 1, name: 'Bella' }] },
  [petShape],
  revisions,
);
const storeOf = (budget: StoreBudget): MemoryStore => {
  const store = new MemoryStore({ shapes: [petShape], budget, revisions });
  store.load(scenario);
  return store;
};
const sessionOf = (name: string, budget: StoreBudget): Session =>
  new Session({
    name,
    scenario,
    shapes: [petShape],
    maxPets: 1_000,
    budget,
    revisions,
    journalSize: 10,
    latency: undefined,
    seed: 1,
  });

describe('the store budget every session shares', () => {
  it('keeps a running total of every store’s own items: a create adds its bytes, a delete and a reset take them back', () => {
    const budget = new StoreBudget(1_000_000);
    const one = storeOf(budget);
    const two = storeOf(budget);
    expect(budget.charged()).toBe(0);
    const first = one.collection(petShape.name).create({ name: 'One' });
    const second = two.collection(petShape.name).create({ name: 'Two' });
    expect(budget.charged()).toBe(jsonBytes(first) + jsonBytes(second));
    expect(budget.charged()).toBe(one.chargedBytes + two.chargedBytes);
    one.collection(petShape.name).delete(first[petShape.idField] as number);
    expect(budget.charged()).toBe(jsonBytes(second));
    two.reset();
    expect(budget.charged()).toBe(0);
  });

  it('refuses a create beyond the total, naming the mock-wide limit, and stores nothing', () => {
    const item = { name: 'Too much' };
    const budget = new StoreBudget(jsonBytes({ [petShape.idField]: 2, ...item }));
    const one = storeOf(budget);
    const two = storeOf(budget);
    one.collection(petShape.name).create(item);
    expect(() => two.collection(petShape.name).create(item)).toThrow(StoreBytesFullError);
    expect(two.collection(petShape.name).size).toBe(1);
    expect(budget.charged()).toBe(budget.maxBytes);
  });

  it('takes a released store’s items out of the total, and counts nothing it writes afterwards', () => {
    const budget = new StoreBudget(1_000_000);
    const kept = storeOf(budget);
    const left = storeOf(budget);
    const item = kept.collection(petShape.name).create({ name: 'Kept' });
    left.collection(petShape.name).create({ name: 'Left' });
    left.release();
    expect(budget.charged()).toBe(jsonBytes(item));
    // A request still in flight on the dropped session writes into a store nobody can reach any more.
    left.collection(petShape.name).create({ name: 'Late' });
    left.release();
    expect(budget.charged()).toBe(jsonBytes(item));
  });

  it('frees the room of a session evicted as the least recently used, and of a dropped one', () => {
    const budget = new StoreBudget(1_000_000);
    const registry = new SessionRegistry({
      defaultSession: sessionOf('default', budget),
      create: (name) => sessionOf(name, budget),
      max: 1,
      logger: silentLogger,
    });
    registry.session('first').store.collection(petShape.name).create({ name: 'First' });
    expect(budget.charged()).toBeGreaterThan(0);
    // A second named session evicts the first (max 1): its pet leaves the budget with it.
    const second = registry.session('second');
    expect(registry.has('first')).toBe(false);
    expect(budget.charged()).toBe(0);
    const item = second.store.collection(petShape.name).create({ name: 'Second' });
    expect(budget.charged()).toBe(jsonBytes(item));
    registry.drop('second');
    expect(budget.charged()).toBe(0);
  });
});
