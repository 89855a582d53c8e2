import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import type { CheckList } from '../check-runner.js';
import type { ContractResponse, ContractSession } from '../contract-session.js';
import { idText, type ItemId } from '../exact-ids.js';
import { sampleWithSeed } from '../support/body-generators.js';
import { knownIds, largestPage, schemaName, unknownIds } from '../support/item-samples.js';
import { accessOf, itemPath, readBack } from '../support/read-back.js';
import { bodyShapes, createFor } from './create-checks.js';

const generatedValidCount = 3;

/** The documented successes of an operation (`200`, `204`), lowest first. */
export function successes(operation: OperationSemantics['operation']): number[] {
  return [...operation.responses.keys()]
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
}

/** `200` or `200 or 204`: the successes as a title names them. */
export function successWords(operation: OperationSemantics['operation']): string {
  return successes(operation).join(' or ') || '2xx';
}

/** Goes on only when the answer is a documented success (else the check stops, as `expectStatus` does). */
export function expectSuccess(
  api: ContractSession,
  operation: OperationSemantics['operation'],
  response: ContractResponse,
  what: string,
): void {
  const documented = successes(operation);
  if (documented.includes(response.status)) return;
  api.expectStatus(response, documented[0] ?? 200, what);
}

/**
 * An operation on an item must answer 404 for an id no item has (its
 * document lists 404): a success there changed or removed an item that is
 * not there, which the document does not allow.
 */
export async function expectUnknown(
  api: ContractSession,
  semantics: OperationSemantics,
  request: (id: ItemId) => Parameters<ContractSession['call']>[1],
): Promise<void> {
  const resource = semantics.resource as Resource;
  const { list } = accessOf(api, resource);
  if (list) await largestPage(api, list);
  const [id] = unknownIds(api, resource, [...knownIds(api, resource), ...api.createdIds]);
  if (id === undefined) return;
  const response = await api.call(semantics.operation, request(id));
  if (response.status === 404) return;
  const name = semantics.operation.operationId;
  if (response.status >= 200 && response.status < 300) {
    api.verify(
      'unknown-item-404',
      false,
      `${name} answered ${response.status} for ${resource.idField} ${idText(id)}, which no ${resource.itemName} has: the document names 404`,
    );
  }
  api.expectStatus(response, 404, `${name} ${idText(id)} (an ${resource.idField} far from every known one)`);
}

/**
 * A replace (PUT) or an update (PATCH) of an item: the oracle judges every
 * answer (a 200 echoes what was written; an invalid body gets 400), and the
 * reference model holds later reads to what was written, once the settle
 * window has passed. Each check acts on an item created for it, never on one
 * the deployment already held.
 */
export function writeChecks(api: ContractSession, checks: CheckList, write: OperationSemantics): void {
  const { operation } = write;
  const resource = write.resource as Resource;
  const access = accessOf(api, resource);
  const name = operation.operationId;
  const { seed, namePrefix } = api.settings;
  const generators = api.bodies(operation);
  const shapes = bodyShapes(api, write, generators);
  const add = (title: string, run: () => Promise<void>) => checks.add(name, title, run, { writes: true });
  const reader = access.read?.operation.operationId ?? access.list?.operation.operationId ?? 'a read';
  const verb = write.kind === 'update' ? 'updated' : 'replaced';

  /** An item made for this operation's checks (one for all of them: each leaves it as it wrote it). */
  let target: Promise<ItemId | undefined> | undefined;
  const item = async (): Promise<ItemId | undefined> => {
    target ??= createFor(api, access);
    const id = await target;
    if (id === undefined) api.unproven(`no ${resource.itemName} was created to be ${verb}`);
    return id;
  };
  const at = (id: ItemId) => itemPath(api, write, id);

  add(
    `answers ${successWords(operation)} with the ${schemaName(resource)} ${verb}, and ${reader} shows the new values within the settle window`,
    async () => {
      const id = await item();
      if (id === undefined) return;
      const response = await api.call(operation, { path: at(id), body: { json: shapes.full(2) } });
      expectSuccess(api, operation, response, `a ${write.kind} of ${resource.itemName} ${idText(id)}`);
      await readBack(api, access, [id]);
    },
  );

  add(`answers 404 with an Error for an ${resource.idField} that does not exist`, async () => {
    await expectUnknown(api, write, (id) => ({ path: at(id), body: { json: shapes.full(3) } }));
  });

  add('answers 400 with an Error for each missing required or wrong-typed field and bad enum value', async () => {
    const id = await item();
    if (id === undefined) return;
    const bodies = generators.everyRule(shapes.full());
    if (bodies.length === 0) {
      api.unproven(`the document gives no rule to break for ${name} bodies`);
      return;
    }
    for (const { body } of bodies) await api.call(operation, { path: at(id), body: { json: body } });
    // Refused writes change nothing: the item still reads with what was last written.
    await readBack(api, access, [id]);
  });

  add('answers 400 with an Error for malformed JSON, and for an empty body', async () => {
    const id = await item();
    if (id === undefined) return;
    await api.call(operation, {
      path: at(id),
      body: { raw: `{"${shapes.text ?? resource.idField}": "${namePrefix}malformed",` },
    });
    await api.call(operation, { path: at(id), body: { raw: '' } });
  });

  add(
    `answers ${successWords(operation)} with an echoing ${schemaName(resource)} to ${generatedValidCount} generated valid bodies, each read back (fast-check, seed ${seed})`,
    async () => {
      const id = await item();
      if (id === undefined) return;
      for (const body of sampleWithSeed(generators.valid, seed + 5, generatedValidCount)) {
        const response = await api.call(operation, { path: at(id), body: { json: body } });
        if (response.status >= 200 && response.status < 300) await readBack(api, access, [id]);
      }
    },
  );
}
