/** What the runner hands to the checks in `contracts/` (through vitest's `provide`). */
export interface ContractSettings {
  baseUrl: string;
  token: string;
  readOnly: boolean;
  timeoutMs: number;
  /** A JSON-lines file the checks append observations, warnings and created ids to. */
  recordFile: string;
  /** Every pet the checks create has a name starting with this. */
  namePrefix: string;
  /** Seed of the generated request bodies. */
  seed: number;
}

/** One line of the record file. */
export interface ContractRecord {
  kind: 'observed' | 'warning' | 'created' | 'unproven';
  operationId: string;
  /** The check that recorded it. */
  check: string;
  message: string;
  /** For `created`: the new pet's id. */
  id?: number;
}

export const namePrefixBase = 'contract-test-';

declare module 'vitest' {
  interface ProvidedContext {
    contract: ContractSettings;
  }
}
