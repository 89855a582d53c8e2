import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { ScenarioCatalogue } from '../../../src/core/scenarios/scenario-catalogue.js';
import { generateItems } from '../../../src/core/seed/generate-items.js';
import { Session } from '../../../src/core/sessions/session.js';
import { resetSession, switchScenario } from '../../../src/core/sessions/session-actions.js';
import { createRevisionCounter } from '../../../src/core/store/revision-counter.js';
import type { Scenario } from '../../../src/core/store/scenario.js';
import { kitApi, petShape, petsIn } from '../../support/kit-model.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { journalEntry } from '../../support/journal-entry.js';

const revisions = createRevisionCounter();
const catalogue = new ScenarioCatalogue({
  compiled: compileDocument(defaultDocument),
  api: kitApi,
  shapes: [petShape],
  revisions,
  pets: 50,
  seed: 1,
  // Generated pets arrive later, as in a browser that loads Faker on demand.
  generateItems: async (options) => generateItems(options),
});
catalogue.add(
  'three',
  { description: 'three', pets: [1, 2, 3].map((id) => ({ id, name: `P${id}`, categoryId: 1 })) },
  'x',
);
catalogue.add('none', { description: 'none', pets: [] }, 'x');
catalogue.add('many', { description: 'many', generate: { count: 40 } }, 'x');

const three = catalogue.load('three') as Scenario;
const session = (maxPets = 100) =>
  new Session({
    name: 'test',
    scenario: three,
    shapes: [petShape],
    maxPets,
    revisions,
    journalSize: 5,
    latency: undefined,
    seed: 1,
  });

describe('Session', () => {
  it("starts on its scenario's shared pets, with an empty journal of its own size", () => {
    const current = session();
    expect(current.state).toEqual({ scenario: 'three', pets: 3 });
    expect(current.store.isCopied).toBe(false);
    expect(current.store.revision).toBe(three.revision);
    expect(current.journal.capacity).toBe(5);
    expect(current.journal.size).toBe(0);
  });

  it('keeps its own store: one session’s pets never show in another of the same scenario', () => {
    const first = session();
    const second = session();
    petsIn(first.store).create({ name: 'Mine', categoryId: 1 });
    expect(first.state.pets).toBe(4);
    expect(second.state.pets).toBe(3);
  });
});

describe('switchScenario', () => {
  it('loads a known scenario into the session and says what the store holds', async () => {
    const current = session();
    await expect(switchScenario(current, catalogue, 'none')).resolves.toEqual({ scenario: 'none', pets: 0 });
    expect(current.store.scenarioName).toBe('none');
  });

  it('waits for a scenario whose pets are generated on demand', async () => {
    const current = session();
    await expect(switchScenario(current, catalogue, 'many')).resolves.toEqual({ scenario: 'many', pets: 40 });
  });

  it('answers 404 scenario_not_found naming the known scenarios, and keeps the store', async () => {
    const current = session();
    await expect(switchScenario(current, catalogue, 'nope')).rejects.toMatchObject({
      status: 404,
      code: 'scenario_not_found',
      message: "no scenario is named 'nope' (scenarios: three, none, many)",
    });
    expect(current.state).toEqual({ scenario: 'three', pets: 3 });
  });

  it('answers 507 store_full for a scenario larger than the store may hold, and keeps the store', async () => {
    const current = session(10);
    await expect(switchScenario(current, catalogue, 'many')).rejects.toMatchObject({ status: 507, code: 'store_full' });
    expect(current.state).toEqual({ scenario: 'three', pets: 3 });
  });
});

describe('resetSession', () => {
  it("takes the store back to its scenario's pets and says what it holds", () => {
    const current = session();
    petsIn(current.store).create({ name: 'Gone soon', categoryId: 1 });
    expect(resetSession(current)).toEqual({ scenario: 'three', pets: 3 });
    expect(current.store.isCopied).toBe(false);
  });

  it('goes back to the scenario the session was made with, not the one switched to since', async () => {
    const current = session();
    await switchScenario(current, catalogue, 'none');
    expect(resetSession(current)).toEqual({ scenario: 'three', pets: 3 });
  });

  it('clears every fault, used or not, and numbers the next one 1 again', () => {
    const current = session();
    current.faults.add({ status: 503 });
    current.faults.add({ operationId: 'getPet', fault: 'timeout', probability: 0.5 });
    expect(current.faults.take('listPets')).toMatchObject({ id: 1 });
    resetSession(current);
    expect(current.faults.list()).toEqual([]);
    expect(current.faults.add({ status: 500 }).id).toBe(1);
  });

  it('goes back to the latency it was made with, not the one set since', () => {
    const slow = new Session({
      name: 'slow',
      scenario: three,
      shapes: [petShape],
      maxPets: 100,
      revisions,
      journalSize: 5,
      latency: { min: 5, max: 10 },
      seed: 1,
    });
    slow.latency = { min: 300, max: 300 };
    resetSession(slow);
    expect(slow.latency).toEqual({ min: 5, max: 10 });
    const quick = session();
    quick.latency = { min: 300, max: 300 };
    resetSession(quick);
    expect(quick.latency).toBeUndefined();
  });

  it('empties the journal and starts its random draws again', () => {
    const current = session();
    const first = [current.random(), current.random()];
    current.journal.record(journalEntry(1));
    resetSession(current);
    expect(current.journal.size).toBe(0);
    expect([current.random(), current.random()]).toEqual(first);
  });
});

describe('Session.drawDelay', () => {
  const withLatency = (latency: { min: number; max: number } | undefined) =>
    new Session({
      name: 'slow',
      scenario: three,
      shapes: [petShape],
      maxPets: 100,
      revisions,
      journalSize: 5,
      latency,
      seed: 1,
    });

  it('gives a fixed latency exactly, and none without one', () => {
    expect(withLatency({ min: 200, max: 200 }).drawDelay()).toBe(200);
    expect(withLatency(undefined).drawDelay()).toBe(0);
    expect(withLatency({ min: 0, max: 0 }).drawDelay()).toBe(0);
  });

  it("draws a latency between min and max from the session's seeded draws, the same after a reset", () => {
    const slow = withLatency({ min: 100, max: 300 });
    const draws = [slow.drawDelay(), slow.drawDelay(), slow.drawDelay()];
    for (const draw of draws) expect(draw).toBeGreaterThanOrEqual(100);
    for (const draw of draws) expect(draw).toBeLessThanOrEqual(300);
    expect(new Set(draws).size).toBe(3);
    slow.reset();
    expect([slow.drawDelay(), slow.drawDelay(), slow.drawDelay()]).toEqual(draws);
  });
});
