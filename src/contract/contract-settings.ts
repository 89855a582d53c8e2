/** What the checks run with against one deployment. */
export interface ContractSettings {
  baseUrl: string;
  token: string;
  readOnly: boolean;
  /** Warnings fail too. */
  strict: boolean;
  timeoutMs: number;
  /** Extra headers sent with every request, names in lower case. */
  headers: Record<string, string>;
  /** Every item the checks create has its free text starting with this (but the one probing an empty text). */
  namePrefix: string;
  /** Seed of the generated request bodies and of the exploration. */
  seed: number;
  /** How long an acknowledged write may take to show in reads (read-after-write timing is not shown by the spec). */
  settleMs: number;
  /**
   * The moment the run takes as now (`--now`, ms since the epoch), its clock
   * running on from there; undefined: the machine's clock. Past an
   * operation's removal date (`x-sunset`), it is no longer in the contract.
   */
  now?: number | undefined;
  /** Requests the stateful exploration may send (0: no exploration). */
  budget: number;
  /**
   * The most requests the suite sends at once: the concurrent creates check
   * and the exploration's groups (1: one request at a time, no groups).
   */
  concurrency: number;
  /**
   * The least time the exploration spreads its budget over (ms; 0: as fast
   * as it can), so that what the run wrote is read again that much later.
   */
  durationMs: number;
  /** Bounds on honouring Retry-After (429, 503): one wait, and all waits of the run together. */
  patience: { maxWaitMs: number; totalMs: number; retries: number };
}

export const namePrefixBase = 'contract-test-';

/** How long a created pet may take to be readable, by default: a replica or a cache a moment behind. */
export const defaultSettleMs = 5_000;

/** Requests the stateful exploration sends by default. */
export const defaultBudget = 150;

/** Requests the suite sends at once by default (a group of creates, lists and reads). */
export const defaultConcurrency = 4;

/** Retry-After is honoured up to 10 s a wait, 3 retries a request, 60 s a run. */
export const defaultPatience = { maxWaitMs: 10_000, totalMs: 60_000, retries: 3 };
