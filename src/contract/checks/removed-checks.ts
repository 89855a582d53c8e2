import type { OperationSemantics } from '../../core/model/describe-api.js';
import { writesByMethod } from '../../core/model/operation-kind.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession, RequestParts } from '../contract-session.js';
import { oneWithSeed } from '../support/body-generators.js';
import { itemPath } from '../support/read-back.js';
import { knownIds, unknownIds } from '../support/item-samples.js';
import { type ExistingItem, existingItem } from './read-checks.js';

/**
 * An operation past its removal date (`x-sunset`, by the run's clock) is no
 * longer in the contract: whether the deployment still serves it, answers
 * 410 Gone or 404 is its choice, so whatever it answers is observed
 * (`removed-operation`), never failed. One check records it, for an item
 * that exists and one that does not; the suite reads through the resource's
 * list instead.
 */
export function removedChecks(
  api: ContractSession,
  checks: CheckList,
  removed: OperationSemantics,
  items: Map<string, Promise<ExistingItem | undefined>>,
): void {
  const { operation, resource } = removed;
  checks.add(
    operation.operationId,
    `past its removal date (${operation.sunset ?? ''}) › records whether the deployment still serves it`,
    async () => {
      const requests: RequestParts[] = [];
      const body = operation.requestBody
        ? { json: oneWithSeed(api.bodies(operation).valid, api.settings.seed) }
        : undefined;
      if (resource && removed.idParameter !== undefined) {
        const item = await existingItem(api, resource, items);
        const [unknown] = unknownIds(api, resource, [...knownIds(api, resource), ...api.createdIds]);
        for (const id of [item?.id, unknown]) if (id !== undefined) requests.push({ path: itemPath(api, removed, id) });
      } else requests.push({});
      for (const request of requests) await api.call(operation, { ...request, ...(body ? { body } : {}) });
    },
    { writes: writesByMethod(operation.method) },
  );
}
