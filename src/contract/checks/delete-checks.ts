import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { idText, type ItemId } from '../exact-ids.js';
import { accessOf, itemPath, readGone } from '../support/read-back.js';
import { createFor } from './create-checks.js';
import { expectSuccess, expectUnknown, successWords } from './write-checks.js';

/**
 * A delete of an item: it answers a documented success, after which the
 * item is gone (its read answers 404 and no list shows it, once the settle
 * window has passed: the reference model fails one still shown); a second
 * delete of it, and a delete of an id no item has, answer 404. Each check
 * deletes an item created for it, never one the deployment already held.
 */
export function deleteChecks(api: ContractSession, checks: CheckList, remove: OperationSemantics): void {
  const { operation } = remove;
  const resource = remove.resource as Resource;
  const access = accessOf(api, resource);
  const name = operation.operationId;
  const add = (title: string, run: () => Promise<void>) => checks.add(name, title, run, { writes: true });
  const at = (id: ItemId) => ({ path: itemPath(api, remove, id) });
  const gone = [
    access.read ? `${access.read.operation.operationId} answers 404` : undefined,
    access.list ? `${access.list.operation.operationId} leaves it out` : undefined,
  ].filter((part) => part !== undefined);

  let deleted: ItemId | undefined;

  add(
    `answers ${successWords(operation)}, then the ${resource.itemName} is gone (${gone.join(' and ') || 'nothing reads it'}), within the settle window`,
    async () => {
      const id = await createFor(api, access);
      if (id === undefined) return;
      const response = await api.call(operation, at(id));
      expectSuccess(api, operation, response, `a delete of ${resource.itemName} ${idText(id)}`);
      deleted = id;
      await readGone(api, access, [id]);
      // Gone from the list too, where a read shows it gone: a replica or a cache may keep it in pages.
      if (access.read && access.list) await readGone(api, { ...access, read: undefined }, [id]);
    },
  );

  add(`answers 404 with an Error to a second delete of the same ${resource.itemName}`, async () => {
    if (deleted === undefined) {
      api.unproven(`no ${resource.itemName} was deleted by the previous check`);
      return;
    }
    const response = await api.call(operation, at(deleted));
    if (response.status >= 200 && response.status < 300) {
      api.verify(
        'unknown-item-404',
        false,
        `${name} answered ${response.status} to a second delete of ${resource.itemName} ${idText(deleted)}: the document names 404 once it is gone`,
      );
    }
    api.expectStatus(response, 404, `a second delete of ${resource.itemName} ${idText(deleted)}`);
  });

  add(`answers 404 with an Error for an ${resource.idField} that does not exist`, async () => {
    await expectUnknown(api, remove, at);
  });
}
