import type { NewPet, Pet, PetStatus } from '../types/api-types.js';

/** A named set of pets the store starts from; `reset()` goes back to it. */
export interface Scenario {
  name: string;
  pets: readonly Pet[];
}

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

/** Thrown by `create` when the next id would not be a safe integer. */
export class IdSpaceExhaustedError extends Error {
  constructor(lastId: number) {
    super(`the next id after ${lastId} would exceed ${Number.MAX_SAFE_INTEGER}`);
    this.name = 'IdSpaceExhaustedError';
  }
}

/** Thrown when the store already holds its maximum number of pets; nothing is ever evicted to make room. */
export class StoreFullError extends Error {
  constructor(readonly maxPets: number) {
    super(`the store is full: it holds its maximum of ${maxPets} pets`);
    this.name = 'StoreFullError';
  }
}

export type StoreChange = 'load' | 'reset' | 'create' | 'restore';

export interface PetStoreOptions {
  /** The most pets the store holds; `create` beyond it throws `StoreFullError`. Default: no limit. */
  maxPets?: number;
}

const noStatus = Symbol('no status');
type StatusKey = PetStatus | typeof noStatus;

/**
 * The mock's only state: the pets, in ascending id order, with an index per
 * status so that a filtered page costs O(limit) however large the store is.
 * Pets are frozen; callers never get a way to change one in place.
 */
export class PetStore {
  readonly maxPets: number;
  #scenario: Scenario = { name: 'empty', pets: [] };
  #version = 0;
  #listeners: Array<(change: StoreChange) => void> = [];
  #byId = new Map<number, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<StatusKey, Pet[]>();
  #lastId = 0;

  constructor(options: PetStoreOptions = {}) {
    this.maxPets = options.maxPets ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Replaces the whole content with the scenario's pets and remembers them for
   * `reset()`. All or nothing: a scenario with a repeated id throws and leaves
   * the store as it was.
   */
  load(scenario: Scenario): void {
    const pets = this.#prepare(scenario.name, scenario.pets);
    this.#scenario = { name: scenario.name, pets };
    this.#fill(pets);
    this.#changed('load');
  }

  /** Goes back to the current scenario's initial pets. */
  reset(): void {
    this.#fill(this.#scenario.pets);
    this.#changed('reset');
  }

  /**
   * Replaces the current pets (for example with those saved in a state file)
   * while keeping the scenario, so that `reset()` still goes back to it. All
   * or nothing, like `load`.
   */
  restore(pets: readonly Pet[]): void {
    this.#fill(this.#prepare(this.#scenario.name, pets));
    this.#changed('restore');
  }

  /** Counts every change; equal versions mean equal content. */
  get version(): number {
    return this.#version;
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
    return this.#all.length;
  }

  /** The first `limit` pets in ascending id order, only those with `status` when given. */
  list(query: ListQuery): Pet[] {
    const source = query.status === undefined ? this.#all : (this.#byStatus.get(query.status) ?? []);
    return source.slice(0, query.limit);
  }

  get(id: number): Pet | undefined {
    return this.#byId.get(id);
  }

  /** Stores a new pet with the next id (one above the highest so far) and returns it. */
  create(newPet: NewPet): Pet {
    if (this.#all.length >= this.maxPets) throw new StoreFullError(this.maxPets);
    const id = this.#lastId + 1;
    if (!Number.isSafeInteger(id)) throw new IdSpaceExhaustedError(this.#lastId);
    // The id is the store's: whatever the caller's object holds under `id` is overwritten.
    const pet: Pet = { id, ...newPet };
    pet.id = id;
    Object.freeze(pet);
    this.#insert(pet);
    this.#changed('create');
    return pet;
  }

  /** Every pet in ascending id order (a copy). */
  all(): Pet[] {
    return [...this.#all];
  }

  /** Sorted, frozen copies; throws on a repeated id or more pets than `maxPets`. */
  #prepare(name: string, source: readonly Pet[]): Pet[] {
    if (source.length > this.maxPets) {
      throw new StoreFullError(this.maxPets);
    }
    const pets = [...source].sort((a, b) => a.id - b.id);
    for (let index = 1; index < pets.length; index++) {
      if (pets[index]?.id === pets[index - 1]?.id) {
        throw new Error(`scenario '${name}' has two pets with id ${pets[index]?.id}`);
      }
    }
    return pets.map((pet) => (Object.isFrozen(pet) ? pet : Object.freeze({ ...pet })));
  }

  #fill(pets: readonly Pet[]): void {
    this.#byId = new Map();
    this.#all = [];
    this.#byStatus = new Map();
    this.#lastId = 0;
    for (const pet of pets) this.#insert(pet);
  }

  #changed(change: StoreChange): void {
    this.#version++;
    for (const listener of this.#listeners) listener(change);
  }

  #insert(pet: Pet): void {
    this.#byId.set(pet.id, pet);
    this.#all.push(pet);
    const key: StatusKey = pet.status ?? noStatus;
    let bucket = this.#byStatus.get(key);
    if (!bucket) {
      bucket = [];
      this.#byStatus.set(key, bucket);
    }
    bucket.push(pet);
    this.#lastId = Math.max(this.#lastId, pet.id);
  }
}
