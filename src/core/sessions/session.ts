import { RequestJournal } from '../journal/request-journal.js';
import type { Latency } from '../pipeline/apply-latency.js';
import { PetStore, type RevisionCounter, type Scenario } from '../store/pet-store.js';

/** What a session's store state looks like from the outside (admin API and in-process). */
export interface StoreState {
  scenario: string;
  pets: number;
}

export interface SessionOptions {
  name: string;
  scenario: Scenario;
  maxPets: number;
  revisions: RevisionCounter;
  journalSize: number;
  latency: Latency | undefined;
}

/**
 * Everything that belongs to one client of the mock: its store (and so its
 * scenario), its journal and its latency. The state of the mock lives here
 * and nowhere else. A new session points at its scenario's shared pets and
 * copies them only on its first write.
 */
export class Session {
  readonly name: string;
  readonly store: PetStore;
  readonly journal: RequestJournal;
  latency: Latency | undefined;

  constructor(options: SessionOptions) {
    this.name = options.name;
    this.store = new PetStore({ maxPets: options.maxPets, revisions: options.revisions });
    this.store.load(options.scenario);
    this.journal = new RequestJournal(options.journalSize);
    this.latency = options.latency;
  }

  get state(): StoreState {
    return { scenario: this.store.scenarioName, pets: this.store.size };
  }
}
