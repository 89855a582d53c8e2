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

const noStatus = Symbol('no status');
type StatusKey = PetStatus | typeof noStatus;

/**
 * The mock's only state: the pets, in ascending id order, with an index per
 * status so that a filtered page costs O(limit) however large the store is.
 * Pets are frozen; callers never get a way to change one in place.
 */
export class PetStore {
  #scenario: Scenario = { name: 'empty', pets: [] };
  #byId = new Map<number, Pet>();
  #all: Pet[] = [];
  #byStatus = new Map<StatusKey, Pet[]>();
  #lastId = 0;

  /**
   * Replaces the whole content with the scenario's pets and remembers them for
   * `reset()`. All or nothing: a scenario with a repeated id throws and leaves
   * the store as it was.
   */
  load(scenario: Scenario): void {
    const pets = [...scenario.pets].sort((a, b) => a.id - b.id);
    for (let index = 1; index < pets.length; index++) {
      if (pets[index]?.id === pets[index - 1]?.id) {
        throw new Error(`scenario '${scenario.name}' has two pets with id ${pets[index]?.id}`);
      }
    }
    this.#scenario = {
      name: scenario.name,
      pets: pets.map((pet) => (Object.isFrozen(pet) ? pet : Object.freeze({ ...pet }))),
    };
    this.reset();
  }

  /** Goes back to the current scenario's initial pets. */
  reset(): void {
    this.#byId = new Map();
    this.#all = [];
    this.#byStatus = new Map();
    this.#lastId = 0;
    for (const pet of this.#scenario.pets) this.#insert(pet);
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
    const id = this.#lastId + 1;
    if (!Number.isSafeInteger(id)) throw new IdSpaceExhaustedError(this.#lastId);
    // The id is the store's: whatever the caller's object holds under `id` is overwritten.
    const pet: Pet = { id, ...newPet };
    pet.id = id;
    Object.freeze(pet);
    this.#insert(pet);
    return pet;
  }

  /** Every pet in ascending id order (a copy). */
  all(): Pet[] {
    return [...this.#all];
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
