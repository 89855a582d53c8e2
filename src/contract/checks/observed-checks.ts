import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { parameterSchema, statusValues } from '../support/document-facts.js';
import { enumNearMisses, integerBoundaries } from '../support/schema-probes.js';

/**
 * Inputs the document leaves open: what the deployment answers is recorded
 * (the oracle's `open-input` observations), never a failure — but an error
 * answer must still carry the Error body, and a 200 must still be valid.
 */
export function observedChecks(api: ContractSession, checks: CheckList): void {
  const listPets = api.operation('listPets');
  const outsideLimits = integerBoundaries(parameterSchema(api.compiled, listPets, 'limit')).invalid.map(String);
  const statusMisses = enumNearMisses(statusValues(api.compiled, listPets)).slice(0, 2);
  const add = (operationId: string, name: string, run: () => Promise<void>) =>
    checks.add(operationId, `observed, not specified › ${name}`, run);

  add('listPets', `records the answer to limit=${outsideLimits.join(' and limit=')}`, async () => {
    for (const limit of outsideLimits) await api.call('listPets', { query: { limit } });
  });

  add('listPets', 'records the answer to an unknown status value and to a near miss of a known one', async () => {
    await api.call('listPets', { query: { status: 'unknown-status' } });
    for (const { value } of statusMisses) await api.call('listPets', { query: { status: value } });
  });

  add('listPets', 'records paging headers', async () => {
    const response = await api.call('listPets', { query: {} });
    const paging = Object.entries(response.headers).filter(([name]) =>
      /link|page|total|cursor|next|range|count/i.test(name),
    );
    api.note(
      'paging',
      paging.length === 0 ? 'no paging headers' : `paging headers: ${paging.map(([n, v]) => `${n}: ${v}`).join('; ')}`,
    );
  });
}
