import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { writesByMethod } from '../../core/model/operation-kind.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { idOf, idText, type ItemId } from '../exact-ids.js';
import { oneWithSeed } from '../support/body-generators.js';
import { parameterSchema } from '../support/document-facts.js';
import { echoMismatches, itemsOf, knownIds, largestPage, schemaName, unknownIds } from '../support/item-samples.js';
import { accessOf, itemPath } from '../support/read-back.js';
import { integerBoundaries, powerName } from '../support/schema-probes.js';

/** An item that exists, with the fields it was listed or created with. */
export interface ExistingItem {
  id: ItemId;
  fields: Record<string, unknown>;
}

/**
 * An item the checks may read: the first its list shows, or, where none is
 * listed and the run may write, one created for the purpose. Asked once per
 * resource and run (`cache`).
 */
export function existingItem(
  api: ContractSession,
  resource: Resource,
  cache: Map<string, Promise<ExistingItem | undefined>>,
): Promise<ExistingItem | undefined> {
  let found = cache.get(resource.name);
  if (!found) {
    found = (async () => {
      const { list, create } = accessOf(api, resource);
      const [listed] = list ? itemsOf(resource, await largestPage(api, list)) : [];
      if (listed) return listed;
      if (api.settings.readOnly || !create) return undefined;
      const response = await api.call(create.operation, {
        body: { json: oneWithSeed(api.bodies(create.operation).valid, api.settings.seed) },
      });
      const id = idOf(response.body, resource);
      return response.status >= 200 && response.status < 300 && id !== undefined
        ? { id, fields: response.body as Record<string, unknown> }
        : undefined;
    })();
    cache.set(resource.name, found);
  }
  return found;
}

/**
 * A read operation: the oracle judges every answer (the item asked for, a
 * documented status, the deprecation announced); these checks ask for an
 * existing item, for ids no item has, for each boundary of the id, and for
 * ids that are not of the id's type.
 */
export function readChecks(
  api: ContractSession,
  checks: CheckList,
  read: OperationSemantics,
  items: Map<string, Promise<ExistingItem | undefined>>,
): void {
  const { operation } = read;
  const resource = read.resource as Resource;
  const idParameter = read.idParameter ?? '';
  const idSchema = parameterSchema(api.compiled, operation, idParameter);
  const integerIds = idSchema.type === 'integer';
  const boundaries = integerIds ? integerBoundaries(idSchema) : { valid: [], invalid: [] };
  const name = operation.operationId;
  const add = (title: string, run: () => Promise<void>) =>
    checks.add(name, title, run, { writes: writesByMethod(operation.method) });
  const at = (id: ItemId | string) => ({ path: itemPath(api, read, id) });

  add(
    `answers 200 with the ${schemaName(resource)} carrying the requested ${resource.idField}, as it is listed`,
    async () => {
      const item = await existingItem(api, resource, items);
      if (!item) {
        api.unproven(
          `no ${resource.itemName} is listed and read-only mode forbids creating one: 200 for an existing ${resource.idField} cannot be checked`,
        );
        return;
      }
      const response = await api.call(operation, at(item.id));
      api.expectStatus(response, 200, `${name} ${idText(item.id)} (a listed ${resource.idField})`);
      // A state may change between the list and the read (transitions are not shown); data may not.
      const changed = echoMismatches(item.fields, response.body).filter(
        ({ field }) => !resource.states.includes(field),
      );
      api.verify(
        'requested-item',
        changed.length === 0,
        `wrong ${resource.itemName}: ${name} ${idText(item.id)} differs from the listed ${resource.itemName}: ${changed.map((c) => c.text).join('; ')}`,
      );
    },
  );

  add(`answers 404 with an Error for an ${resource.idField} that does not exist`, async () => {
    const { list } = accessOf(api, resource);
    if (list) await largestPage(api, list);
    const answers: string[] = [];
    for (const id of unknownIds(api, resource, [...knownIds(api, resource), ...api.createdIds])) {
      const response = await api.call(operation, at(id));
      if (response.status === 404) return;
      api.expectStatus(response, 200, `${name} ${idText(id)} (an ${resource.idField} far from every listed one)`);
      answers.push(idText(id));
    }
    api.verify(
      'unknown-item-404',
      false,
      `200 for unknown ids: ${name} answered 200 for every ${resource.idField} tried far from the listed ones (${answers.join(', ')})`,
    );
  });

  if (boundaries.valid.length > 0) {
    add(
      `answers 404, or 200 with that very ${resource.itemName}, to each boundary value of '${idParameter}' (${boundaries.valid.map(powerName).join(', ')})`,
      async () => {
        // The oracle holds each answer to the documented statuses and a 200 to the item asked for.
        for (const id of boundaries.valid) await api.call(operation, at(id));
      },
    );
  }

  if (integerIds) {
    add(
      `answers a${/^[aeiou]/i.test(idParameter) ? 'n' : ''} ${idParameter} that is not an ${idSchema.format ?? 'integer'} integer with an Error, never another ${resource.itemName}`,
      async () => {
        const id = (await existingItem(api, resource, items))?.id ?? 1;
        // An answer the document does not list is observed; a 200 must be the item the text names.
        const invalid = [
          ...boundaries.invalid.map((value) => String(value)),
          `${idText(id)}.0`,
          `${idText(id)}e0`,
          'not-an-id',
        ];
        for (const text of invalid) await api.call(operation, at(text));
      },
    );
  }
}
