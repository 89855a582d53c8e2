import type { OperationSemantics } from '../../core/model/describe-api.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { parameterSchema } from '../support/document-facts.js';
import { enumNearMisses, integerBoundaries } from '../support/schema-probes.js';
import { enumFilters } from './list-checks.js';

/**
 * Inputs the document leaves open on a list: what the deployment answers is
 * recorded (the oracle's `open-input` observations), never a failure — but
 * an error answer must still carry the Error body, and a 200 must still be
 * valid.
 */
export function observedChecks(api: ContractSession, checks: CheckList, list: OperationSemantics): void {
  const { operation, page } = list;
  const add = (name: string, run: () => Promise<void>) =>
    checks.add(operation.operationId, `observed, not specified › ${name}`, run);

  if (page) {
    const outside = integerBoundaries(parameterSchema(api.compiled, operation, page.name)).invalid.map(String);
    if (outside.length > 0) {
      add(`records the answer to ${page.name}=${outside.join(` and ${page.name}=`)}`, async () => {
        for (const value of outside) await api.call(operation, { query: { [page.name]: value } });
      });
    }
  }

  for (const { name, values } of enumFilters(api, list)) {
    add(`records the answer to an unknown ${name} value and to a near miss of a known one`, async () => {
      await api.call(operation, { query: { [name]: `unknown-${name}` } });
      for (const { value } of enumNearMisses(values).slice(0, 2))
        await api.call(operation, { query: { [name]: value } });
    });
  }

  add('records paging headers', async () => {
    const response = await api.call(operation, { query: {} });
    const paging = Object.entries(response.headers).filter(([name]) =>
      /link|page|total|cursor|next|range|count/i.test(name),
    );
    api.note(
      'paging',
      paging.length === 0 ? 'no paging headers' : `paging headers: ${paging.map(([n, v]) => `${n}: ${v}`).join('; ')}`,
    );
  });
}
