import type { CollectionShape } from '../store/item-snapshot.js';
import type { Scenario } from '../store/scenario.js';
import type { MockLogger } from '../support/mock-logger.js';
import type { Awaitable } from '../types/awaitable.js';
import type { Latency, StateStore } from './state-store.js';

/** The scenarios a state store may load (a switch): the mock's catalogue, as the store sees it. */
export interface ScenarioLoader {
  has(name: string): boolean;
  /** The known names, for a message. */
  names(): string;
  load(name: string): Scenario | Promise<Scenario>;
}

/** The bounds a state store holds, as the mock's options give them. */
export interface StateLimits {
  maxSessions: number;
  maxItems: number;
  maxStoreBytes: number;
  maxTotalStoreBytes: number;
  journalSize: number;
  maxJournalBytes: number | undefined;
  maxJournalReadBytes: number | undefined;
}

/** What the core knows once its first scenario is loaded, and gives a state store it did not build itself. */
export interface StateContext {
  /** The document's collections, one per resource. */
  shapes: readonly CollectionShape[];
  /** The scenario every session starts from and a reset goes back to. */
  startScenario: Scenario;
  scenarios: ScenarioLoader;
  /** The mock's seed: each session's draws start from it and the session's name. */
  seed: number;
  /** The latency every session starts with. */
  latency: Latency | undefined;
  /** How far every session's clock starts from the mock's, in ms (`now`). */
  clockOffset: number;
  limits: StateLimits;
  /** The mock's clock, in ms since the epoch. */
  clock: () => number;
  logger: MockLogger;
}

/**
 * Builds the state a mock shares with other replicas (Redis, Valkey) from
 * what the core knows: the core stays free of any client, which the Node side
 * brings (src/redis/). The mock answers nothing until it resolves; a store
 * whose server is down still resolves, and refuses calls until it answers.
 */
export type StateStoreFactory = (context: StateContext) => Awaitable<StateStore>;
