/** What the runner hands to the checks in `contracts/` for one deployment (through vitest's `provide`). */
export interface ContractSettings {
  /**
   * Names the deployment's checks when one run checks several deployments (the
   * self-test's batches); empty when it checks one, so that check names stay as they are.
   */
  label: string;
  baseUrl: string;
  token: string;
  readOnly: boolean;
  timeoutMs: number;
  /** Extra headers sent with every request, names in lower case. */
  headers: Record<string, string>;
  /** A JSON-lines file the checks append observations, warnings, created ids and statuses seen to. */
  recordFile: string;
  /** Every pet the checks create has a name starting with this (but the one probing an empty name). */
  namePrefix: string;
  /** Seed of the generated request bodies. */
  seed: number;
}

/** A line of the record file that a report shows as it is. */
export interface NoteRecord {
  kind: 'observed' | 'warning' | 'unproven';
  operationId: string;
  /** The check that recorded it. */
  check: string;
  message: string;
}

/** A pet a check created: its id as the exact decimal text the deployment wrote. */
export interface CreatedRecord {
  kind: 'created';
  operationId: string;
  check: string;
  id: string;
}

/** A response a check received, for the coverage table. */
export interface ResponseRecord {
  kind: 'response';
  operationId: string;
  status: number;
}

/** One line of the record file. */
export type ContractRecord = NoteRecord | CreatedRecord | ResponseRecord;

export const namePrefixBase = 'contract-test-';

declare module 'vitest' {
  interface ProvidedContext {
    /** One entry per deployment the run checks. */
    contract: ContractSettings[];
  }
}
