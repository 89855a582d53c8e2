import { HttpError } from '../errors/http-error.js';
import { int64Max, normaliseInt64, stringifyJson, type Int64 } from '../json/exact-json.js';
import type { ExactNewPet, ExactPet, PetStatus } from '../types/api-types.js';
import { buildSnapshot, copySnapshot, insertPet, type PetSnapshot } from './pet-snapshot.js';

/** A named set of pets a store starts from; `reset()` goes back to it. Shared, never changed. */
export interface Scenario {
  readonly name: string;
  readonly snapshot: PetSnapshot;
  /** Identifies the scenario's content for response caches (see `PetStore.revision`). */
  readonly revision: number;
  /** The size of its pets as JSON, in bytes (see `jsonBytes`). */
  readonly bytes: number;
}

/** How many bytes a pet takes as JSON (UTF-8): what the store's byte limits count. */
export function jsonBytes(pet: ExactPet): number {
  const text = stringifyJson(pet);
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two UTF-16 units of a surrogate pair are four bytes; one unit above 0x7f is two or three.
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

function totalBytes(pets: readonly ExactPet[]): number {
  let bytes = 0;
  for (const pet of pets) bytes += jsonBytes(pet);
  return bytes;
}

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

/**
 * Thrown by `create` when the next id would lie beyond int64. An `HttpError`,
 * so that it reaches a client as a `500 id_space_exhausted` Error body
 * wherever it is thrown.
 */
export class IdSpaceExhaustedError extends HttpError {
  constructor(lastId: Int64) {
    super('id_space_exhausted', `the next id after ${lastId} would exceed the int64 maximum ${int64Max}`);
  }
}

/**
 * Thrown when a change would take the store beyond its maximum number of
 * pets; nothing is stored and nothing is evicted to make room. An
 * `HttpError` (`507 store_full`), so that the create, the admin switch and
 * start-up all report it with the same words, from here.
 */
export class StoreFullError extends HttpError {
  constructor(
    readonly maxPets: number,
    readonly wanted: number,
    /** What would not fit: `a new pet`, `scenario 'large'`, `the pets saved in FILE`. */
    readonly what: string,
  ) {
    super(
      'store_full',
      `${what} would make the store hold ${wanted} pets, more than its maximum of ${maxPets} (--max-pets); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)`,
    );
  }
}

/**
 * Thrown when a change would take the store, or the stores of the whole
 * mock, beyond their byte budget (the pets' JSON size); nothing is stored and
 * nothing is evicted. `507 store_full`, like the pet-count limit.
 */
export class StoreBytesFullError extends HttpError {
  constructor(
    readonly maxBytes: number,
    readonly wanted: number,
    readonly what: string,
    /** Which budget: one session's store, or every session's together. */
    readonly scope: 'store' | 'mock',
  ) {
    super(
      'store_full',
      scope === 'store'
        ? `${what} would make the store hold ${wanted} bytes of pets (as JSON), more than its maximum of ${maxBytes} bytes (--max-store-bytes); nothing was changed and nothing is evicted (a reset takes the store back to its scenario)`
        : `${what} would make the sessions' stores hold ${wanted} bytes of pets (as JSON) together, more than the mock's maximum of ${maxBytes} bytes (--max-total-store-bytes); nothing was changed and nothing is evicted (a reset or a dropped session frees room)`,
    );
  }
}

/**
 * The byte budget every store of one mock shares: a store counts against it
 * from its first write (until then it shares its scenario's pets, which cost
 * nothing more), with every pet it holds.
 */
export interface StoreBudget {
  readonly maxBytes: number;
  /** What the stores hold against the budget now (the sum of their `chargedBytes`). */
  charged(): number;
}

/**
 * What stands between a change and the store (the state file, in Node, so
 * that the core learns of a failing disk without importing node:fs).
 */
export interface WriteGate {
  /**
   * Asked before a change is made: throws an `HttpError` to refuse it (`503
   * store_unavailable` while the state file cannot be written); nothing is changed then.
   */
  check(change: StoreChange): void;
  /** Why changes are refused now, for the health endpoint; `undefined` while they are accepted. */
  problem(): HttpError | undefined;
}

export type StoreChange = 'load' | 'reset' | 'create' | 'restore';

/** Hands out numbers that are never given twice, so that a revision names one content across all stores. */
export interface RevisionCounter {
  next(): number;
}

export function createRevisionCounter(): RevisionCounter {
  let last = 0;
  return { next: () => ++last };
}

export interface PetStoreOptions {
  /** The most pets the store holds; `create` beyond it throws `StoreFullError`. Default: no limit. */
  maxPets?: number;
  /** The most bytes of pets (as JSON) the store holds; beyond it `StoreBytesFullError`. Default: no limit. */
  maxBytes?: number;
  /** The budget shared by every store of the mock. Default: none. */
  budget?: StoreBudget;
  /** Shared by the stores of one mock, so that equal revisions mean equal content. */
  revisions?: RevisionCounter;
}

/** Builds a scenario from checked pets (see check-pet-list.ts). */
export function createScenario(name: string, pets: readonly ExactPet[], revisions: RevisionCounter): Scenario {
  const snapshot = buildSnapshot(pets, `scenario '${name}'`);
  return { name, snapshot, revision: revisions.next(), bytes: totalBytes(snapshot.all) };
}

/**
 * The pets of one session. It starts by pointing at its scenario's shared
 * snapshot, so a store nobody writes to costs next to nothing; its first
 * change copies the snapshot. Pets are frozen: callers never get a way to
 * change one in place.
 */
export class PetStore {
  readonly maxPets: number;
  readonly maxBytes: number;
  readonly #budget: StoreBudget | undefined;
  readonly #revisions: RevisionCounter;
  /** The JSON size of the pets held. */
  #bytes = 0;
  #gate: WriteGate | undefined;
  #scenario: Scenario;
  #data: PetSnapshot;
  /** Whether `#data` is this store's own copy (true) or the scenario's shared snapshot. */
  #owned = false;
  #revision: number;
  #listeners: Array<(change: StoreChange) => void> = [];

  constructor(options: PetStoreOptions = {}) {
    this.maxPets = options.maxPets ?? Number.POSITIVE_INFINITY;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#budget = options.budget;
    this.#revisions = options.revisions ?? createRevisionCounter();
    this.#scenario = createScenario('empty', [], this.#revisions);
    this.#data = this.#scenario.snapshot;
    this.#revision = this.#scenario.revision;
  }

  /**
   * Points the store at the scenario's pets and remembers them for `reset()`.
   * A scenario larger than `maxPets` throws `StoreFullError` and changes nothing.
   */
  load(scenario: Scenario): void {
    this.#checkFits(scenario.snapshot.all.length, `scenario '${scenario.name}'`);
    this.#checkBytes(scenario.bytes, `scenario '${scenario.name}'`, false);
    this.#gate?.check('load');
    this.#scenario = scenario;
    this.#share(scenario);
    this.#changed('load');
  }

  /** Goes back to the current scenario's initial pets. */
  reset(): void {
    this.#gate?.check('reset');
    this.#share(this.#scenario);
    this.#changed('reset');
  }

  /**
   * Replaces the current pets (for example with those saved in a state file)
   * while keeping the scenario, so that `reset()` still goes back to it. All
   * or nothing: too many pets or an id used twice throws and changes nothing.
   */
  restore(pets: readonly ExactPet[], what = 'the restored pets'): void {
    this.#checkFits(pets.length, what);
    const data = buildSnapshot(pets, what);
    const bytes = totalBytes(data.all);
    this.#checkBytes(bytes, what, true);
    this.#data = data;
    this.#bytes = bytes;
    this.#owned = true;
    this.#revision = this.#revisions.next();
    this.#changed('restore');
  }

  /**
   * Names the content: it changes with every change, and two stores showing
   * the same unchanged scenario share it. Response caches key on it.
   */
  get revision(): number {
    return this.#revision;
  }

  /** Calls `listener` after every change, with what changed. Returns a function that stops it. */
  onChange(listener: (change: StoreChange) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  get scenarioName(): string {
    return this.#scenario.name;
  }

  get size(): number {
    return this.#data.all.length;
  }

  /** Whether the store has its own copy of the pets (it has changed since its scenario was loaded). */
  get isCopied(): boolean {
    return this.#owned;
  }

  /** The JSON size of the pets held, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** What the store holds against the mock's budget: every byte once it has its own copy, nothing before. */
  get chargedBytes(): number {
    return this.#owned ? this.#bytes : 0;
  }

  /**
   * Sets the gate asked before every change from now on (one at a time: the
   * state file's writer sets it for the store it keeps). `undefined` removes it.
   */
  setWriteGate(gate: WriteGate | undefined): void {
    this.#gate = gate;
  }

  /** Why changes are refused now (see `setWriteGate`), or `undefined`. */
  get writeProblem(): HttpError | undefined {
    return this.#gate?.problem();
  }

  /** The first `limit` pets in ascending id order, only those with `status` when given. */
  list(query: ListQuery): ExactPet[] {
    const source = query.status === undefined ? this.#data.all : (this.#data.byStatus.get(query.status) ?? []);
    return source.slice(0, query.limit);
  }

  get(id: Int64): ExactPet | undefined {
    return this.#data.byId.get(id);
  }

  /** Stores a new pet with the next id (one above the highest so far) and returns it. */
  create(newPet: ExactNewPet): ExactPet {
    this.#checkFits(this.#data.all.length + 1, 'a new pet');
    const last = this.#data.lastId;
    if (BigInt(last) >= int64Max) throw new IdSpaceExhaustedError(last);
    const id =
      typeof last === 'number' && last < Number.MAX_SAFE_INTEGER ? last + 1 : normaliseInt64(BigInt(last) + 1n);
    // The id is the store's: whatever the caller's object holds under `id` is overwritten.
    const pet = { id, ...newPet } as ExactPet;
    pet.id = id;
    Object.freeze(pet);
    const bytes = this.#bytes + jsonBytes(pet);
    this.#checkBytes(bytes, 'a new pet', true);
    this.#gate?.check('create');
    this.#own();
    this.#bytes = bytes;
    insertPet(this.#data, pet);
    this.#revision = this.#revisions.next();
    this.#changed('create');
    return pet;
  }

  /** Every pet in ascending id order (a copy). */
  all(): ExactPet[] {
    return [...this.#data.all];
  }

  #checkFits(count: number, what: string): void {
    if (count > this.maxPets) throw new StoreFullError(this.maxPets, count, what);
  }

  /**
   * Checks that the store may hold `bytes` of pets: against its own maximum,
   * and, when `owned` (the store will hold its own copy), against the mock's
   * budget, in which this store's current charge is replaced by `bytes`.
   */
  #checkBytes(bytes: number, what: string, owned: boolean): void {
    if (bytes > this.maxBytes) throw new StoreBytesFullError(this.maxBytes, bytes, what, 'store');
    if (!owned || !this.#budget) return;
    const total = this.#budget.charged() - this.chargedBytes + bytes;
    if (total > this.#budget.maxBytes) throw new StoreBytesFullError(this.#budget.maxBytes, total, what, 'mock');
  }

  #share(scenario: Scenario): void {
    this.#data = scenario.snapshot;
    this.#bytes = scenario.bytes;
    this.#owned = false;
    this.#revision = scenario.revision;
  }

  #own(): void {
    if (this.#owned) return;
    this.#data = copySnapshot(this.#data);
    this.#owned = true;
  }

  #changed(change: StoreChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}
