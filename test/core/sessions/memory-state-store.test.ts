import { describe, expect, it } from 'vitest';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { ScenarioCatalogue } from '../../../src/core/scenarios/scenario-catalogue.js';
import { generateItems } from '../../../src/core/seed/generate-items.js';
import { MemoryStateStore } from '../../../src/core/sessions/memory-state-store.js';
import { Session } from '../../../src/core/sessions/session.js';
import { SessionRegistry } from '../../../src/core/sessions/session-registry.js';
import type { RequestCall } from '../../../src/core/state/state-store.js';
import { createRevisionCounter } from '../../../src/core/store/revision-counter.js';
import { createScenario, type Scenario } from '../../../src/core/store/scenario.js';
import { silentLogger } from '../../../src/core/support/mock-logger.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { kitApi, petShape } from '../../support/kit-model.js';

const revisions = createRevisionCounter();
const catalogue = new ScenarioCatalogue({
  compiled: compileDocument(defaultDocument),
  api: kitApi,
  shapes: [petShape],
  revisions,
  pets: 50,
  seed: 1,
  generateItems,
});
catalogue.add(
  'three',
  { description: 'three', pets: [1, 2, 3].map((id) => ({ id, name: `P${id}`, categoryId: 1 })) },
  'x',
);
const three = catalogue.load('three') as Scenario;

/** A memory state of a 2000-01-01 clock, whose sessions start on `three`, at most two named ones. */
function memoryState(latency?: { min: number; max: number }) {
  const make = (name: string) =>
    new Session({ name, scenario: three, shapes: [petShape], maxPets: 4, revisions, journalSize: 5, latency, seed: 1 });
  const sessions = new SessionRegistry({ defaultSession: make('default'), create: make, max: 2, logger: silentLogger });
  return {
    sessions,
    state: new MemoryStateStore({ sessions, scenarios: catalogue, clock: () => Date.parse('2000-01-01T00:00:00Z') }),
  };
}

const call = (overrides: Partial<RequestCall> = {}): RequestCall => ({
  session: 'default',
  make: true,
  operationId: 'getPet',
  latency: true,
  sunset: undefined,
  action: undefined,
  ...overrides,
});

describe('MemoryStateStore.settle, the one call of a request', () => {
  it('answers at once, not with a promise, and performs the store action', () => {
    const { state } = memoryState();
    const settled = state.settle(call({ action: { op: 'get', collection: 'pets', id: 2 } }));
    expect(settled).not.toBeInstanceOf(Promise);
    expect(settled.result).toMatchObject({ found: true, item: { id: 2, name: 'P2' } });
    expect(settled).toMatchObject({ delayMs: 0, fault: undefined, removed: false, failure: undefined });
  });

  it("reads the session's clock for a call with a sunset to compare it with, and for no other", () => {
    const { state } = memoryState();
    const sunset = Date.parse('2000-01-02T00:00:00Z');
    const before = state.settle(call({ sunset, action: { op: 'get', collection: 'pets', id: 2 } }));
    expect(before.now).toBe(Date.parse('2000-01-01T00:00:00Z'));
    expect(before).toMatchObject({ removed: false, result: { found: true } });
    const after = state.settle(call({ sunset: Date.parse('2000-01-01T00:00:00Z') }));
    expect(after).toMatchObject({ removed: true, now: Date.parse('2000-01-01T00:00:00Z') });
    expect(state.settle(call()).now).toBeUndefined();
  });

  it('takes a matching fault once, with who scheduled it, and then performs nothing else', () => {
    const { state } = memoryState();
    state.addFault({ name: 'default' }, { operationId: 'createPet', status: 503 }, 'scheduleFault()');
    expect(state.faults({ name: 'default' })).toEqual([{ id: 1, operationId: 'createPet', status: 503, times: 1 }]);
    const create = { op: 'create', collection: 'pets', fields: { name: 'New', categoryId: 1 } } as const;
    const faulted = state.settle(call({ operationId: 'createPet', action: create }));
    expect(faulted.fault).toMatchObject({ id: 1, status: 503, source: 'scheduleFault()' });
    expect(faulted.result).toBeUndefined();
    expect(state.storeState({ name: 'default' })).toEqual({ scenario: 'three', pets: 3 });
    const next = state.settle(call({ operationId: 'createPet', action: create }));
    expect(next.fault).toBeUndefined();
    expect(next.result?.item).toMatchObject({ id: 4, name: 'New' });
    expect(state.faults({ name: 'default' })).toEqual([]);
  });

  it('refuses an operation past its sunset by the session’s clock, without its action', () => {
    const { state } = memoryState();
    const remove = { op: 'delete', collection: 'pets', id: 1, returning: false } as const;
    const sunset = Date.parse('1999-12-31T00:00:00Z');
    expect(state.settle(call({ sunset, action: remove }))).toMatchObject({ removed: true, result: undefined });
    expect(state.storeState({ name: 'default' })).toEqual({ scenario: 'three', pets: 3 });
    state.setClock({ name: 'default' }, Date.parse('1999-01-01T00:00:00Z'));
    expect(state.settle(call({ sunset, action: remove })).result).toMatchObject({ found: true });
  });

  it('makes and marks used a session only when asked to (an authenticated request)', () => {
    const { state, sessions } = memoryState();
    expect(state.settle(call({ session: 'w1', make: false })).session.name).toBe('default');
    expect(sessions.has('w1')).toBe(false);
    state.settle(call({ session: 'w1' }));
    state.settle(call({ session: 'w2' }));
    state.settle(call({ session: 'w1' }));
    // A third named session evicts the least recently used: w2, as w1 was used since.
    state.settle(call({ session: 'w3' }));
    expect(sessions.list().map((each) => each.name)).toEqual(['default', 'w1', 'w3']);
  });

  it('returns the store’s refusal as the request’s failure, and changes nothing', () => {
    const { state } = memoryState();
    const create = { op: 'create', collection: 'pets', fields: { name: 'New', categoryId: 1 } } as const;
    state.settle(call({ action: create }));
    const full = state.settle(call({ action: create }));
    expect(full.failure).toMatchObject({ status: 507, code: 'store_full' });
    expect(state.storeState({ name: 'default' })).toEqual({ scenario: 'three', pets: 4 });
  });

  it('draws the session’s latency for the API only, repeatably, before the faults’ draws', () => {
    const first = memoryState({ min: 100, max: 300 }).state;
    const second = memoryState({ min: 100, max: 300 }).state;
    const delays = (state: MemoryStateStore) => [1, 2, 3].map(() => state.settle(call()).delayMs);
    const drawn = delays(first);
    expect(delays(second)).toEqual(drawn);
    for (const delay of drawn) expect(delay).toBeGreaterThanOrEqual(100);
    expect(first.settle(call({ latency: false })).delayMs).toBe(0);
  });

  it('answers a clock it sets with the moment it was given, on a clock that moves on at each reading', () => {
    const { sessions } = memoryState();
    let machineNow = Date.parse('2000-01-01T00:00:00Z');
    const state = new MemoryStateStore({ sessions, scenarios: catalogue, clock: () => machineNow++ });
    const moment = Date.parse('2030-12-06T10:00:00Z');
    expect(state.setClock({ name: 'default' }, moment)).toEqual({
      now: '2030-12-06T10:00:00.000Z',
      offsetMs: moment - Date.parse('2000-01-01T00:00:00Z'),
    });
    expect(state.clock({ name: 'default' }).now).toBe('2030-12-06T10:00:00.001Z');
  });

  it('journals an exchange in the session the request was settled in', () => {
    const { state } = memoryState();
    const { session } = state.settle(call({ session: 'w1' }));
    state.record(session, {
      id: 'r1',
      startedAt: 0,
      method: 'GET',
      url: '/v1/pets/1',
      headers: {},
      body: undefined,
      status: 200,
      responseBody: undefined,
      durationMs: 1,
      admin: false,
    });
    expect(state.journal({ name: 'w1' }).requests.map((entry) => entry.id)).toEqual(['r1']);
    expect(state.journal({ name: 'default' }).requests).toEqual([]);
  });
});

describe('MemoryStateStore.settle, a write that refers to other items', () => {
  const keepers = { name: 'keepers', itemName: 'keeper', idField: 'id', idType: 'string', indexed: [] } as const;
  const withKeepers = createScenario(
    'kept',
    {
      pets: [{ id: 1, name: 'P1', categoryId: 1, keeper: 'k1' }],
      keepers: [{ id: 'k1', name: 'Ann' }],
    },
    [petShape, keepers],
    revisions,
  );
  const stateOf = () => {
    const make = (name: string) =>
      new Session({
        name,
        scenario: withKeepers,
        shapes: [petShape, keepers],
        maxPets: 10,
        revisions,
        journalSize: 5,
        latency: undefined,
        seed: 1,
      });
    const sessions = new SessionRegistry({
      defaultSession: make('default'),
      create: make,
      max: 2,
      logger: silentLogger,
    });
    return new MemoryStateStore({ sessions, scenarios: catalogue, clock: () => 0 });
  };
  const refersTo = (id: string) => [{ collection: 'keepers', id, field: 'keeper', itemName: 'keeper' }];

  it.each([
    ['a create', { op: 'create', collection: 'pets', fields: { name: 'New', categoryId: 1, keeper: 'k9' } }],
    ['a replace', { op: 'replace', collection: 'pets', id: 1, fields: { name: 'New', categoryId: 1, keeper: 'k9' } }],
    ['an update', { op: 'update', collection: 'pets', id: 1, patch: { keeper: 'k9' } }],
  ] as const)(
    'refuses %s naming an item that does not exist with 400 invalid_reference, naming the field, and changes nothing',
    (_what, action) => {
      const state = stateOf();
      const settled = state.settle(call({ operationId: 'createPet', action: { ...action, requires: refersTo('k9') } }));
      expect(settled.result).toBeUndefined();
      expect(settled.failure).toMatchObject({
        code: 'invalid_reference',
        status: 400,
        message: "body field 'keeper' refers to keeper k9, which does not exist (keepers holds no such item)",
        details: [{ location: 'body', field: 'keeper' }],
      });
      expect(state.storeState({ name: 'default' })).toEqual({ scenario: 'kept', pets: 1, keepers: 1 });
      const pet = state.settle(call({ action: { op: 'get', collection: 'pets', id: 1 } })).result?.item;
      expect(pet).toEqual({ id: 1, name: 'P1', categoryId: 1, keeper: 'k1' });
    },
  );

  it('performs a write whose references all exist, in the same call', () => {
    const state = stateOf();
    const settled = state.settle(
      call({
        operationId: 'createPet',
        action: {
          op: 'create',
          collection: 'pets',
          fields: { name: 'New', categoryId: 1, keeper: 'k1' },
          requires: refersTo('k1'),
        },
      }),
    );
    expect(settled.failure).toBeUndefined();
    expect(settled.result?.item).toEqual({ id: 2, name: 'New', categoryId: 1, keeper: 'k1' });
  });

  it('checks the references before the item: an update of a missing item naming a missing keeper is refused 400', () => {
    const state = stateOf();
    const settled = state.settle(
      call({ action: { op: 'update', collection: 'pets', id: 42, patch: { keeper: 'k9' }, requires: refersTo('k9') } }),
    );
    expect(settled.failure?.code).toBe('invalid_reference');
  });
});
