import { type Check, CheckList } from './check-runner.js';
import { authChecks } from './checks/auth-checks.js';
import { createPetChecks } from './checks/create-pet-checks.js';
import { getPetChecks } from './checks/get-pet-checks.js';
import { listPetsChecks } from './checks/list-pets-checks.js';
import { observedChecks } from './checks/observed-checks.js';
import type { ContractSession } from './contract-session.js';
import { explorationChecks } from './explore/exploration-check.js';

/**
 * Every check of the suite, in the order they run: the reads first (so that
 * lists are seen before the suite adds a pet of every status, and an empty
 * filtered list shows where the data has one), then authentication, then
 * the writes, then the stateful exploration.
 */
export function contractSuite(api: ContractSession): Check[] {
  const checks = new CheckList();
  listPetsChecks(api, checks);
  getPetChecks(api, checks);
  observedChecks(api, checks);
  authChecks(api, checks);
  createPetChecks(api, checks);
  explorationChecks(api, checks);
  return checks.checks;
}
