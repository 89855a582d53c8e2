import type { OperationKind } from '../core/model/operation-kind.js';
import type { OperationSemantics } from '../core/model/describe-api.js';
import { type Check, CheckList } from './check-runner.js';
import { authChecks } from './checks/auth-checks.js';
import { conditionalChecks, revalidationChecks, type ValidatorsSeen } from './checks/conditional-checks.js';
import { createChecks } from './checks/create-checks.js';
import { deleteChecks } from './checks/delete-checks.js';
import { listChecks } from './checks/list-checks.js';
import { observedChecks } from './checks/observed-checks.js';
import { type ExistingItem, readChecks } from './checks/read-checks.js';
import { removedChecks } from './checks/removed-checks.js';
import { writeChecks } from './checks/write-checks.js';
import type { ContractSession } from './contract-session.js';
import { explorationChecks } from './explore/exploration-check.js';
import type { ExplorationOptions } from './explore/explore-deployment.js';

/**
 * Every check of the suite, registered by walking the document's model
 * (`describeApi`): each operation gets the checks of its kind, never of its
 * name, so a document that gains or loses an operation is checked by what it
 * says. They run in this order: the reads first (so that lists are seen
 * before the suite adds an item of every state, and an empty filtered list
 * shows where the data has one), then what the document leaves open, then
 * conditional requests (when the deployment sends validators), then
 * authentication, then the writes (create, replace and update, delete), then
 * the revalidation of the lists the writes changed, then the stateful
 * exploration. An operation past its removal date
 * (`x-sunset`, by the run's clock) is only observed.
 */
/** Operations ordered so that those of a collection come before those of collections that refer to it. */
function referredFirst(operations: OperationSemantics[]): OperationSemantics[] {
  const referredBy = (each: OperationSemantics, other: OperationSemantics): boolean =>
    each.resource !== other.resource &&
    (other.resource?.references.some((reference) => reference.collection === each.resource?.name) ?? false);
  const ordered: OperationSemantics[] = [];
  const rest = [...operations];
  while (rest.length > 0) {
    const next = rest.find((each) => !rest.some((other) => other !== each && referredBy(other, each))) ?? rest[0];
    ordered.push(next as OperationSemantics);
    rest.splice(rest.indexOf(next as OperationSemantics), 1);
  }
  return ordered;
}

export function contractSuite(api: ContractSession, exploration: ExplorationOptions = {}): Check[] {
  const checks = new CheckList();
  const current = api.api.operations.filter((each) => !api.removed(each.operation));
  const ofKind = (...kinds: OperationKind[]): OperationSemantics[] =>
    current.filter((each) => kinds.includes(each.kind));
  const items = new Map<string, Promise<ExistingItem | undefined>>();
  const validators = new Map<string, ValidatorsSeen | undefined>();

  for (const list of ofKind('list')) listChecks(api, checks, list);
  for (const read of ofKind('read')) readChecks(api, checks, read, items);
  for (const removed of api.api.operations.filter((each) => api.removed(each.operation)))
    removedChecks(api, checks, removed, items);
  for (const list of ofKind('list')) observedChecks(api, checks, list);
  for (const each of ofKind('list', 'read')) conditionalChecks(api, checks, each, items, validators);
  authChecks(
    api,
    checks,
    current.map((each) => each.operation),
  );
  // The creates of the collections others refer to first, so that a create referring to one finds one there.
  for (const create of referredFirst(ofKind('create'))) createChecks(api, checks, create);
  for (const write of ofKind('replace', 'update')) writeChecks(api, checks, write);
  for (const remove of ofKind('delete')) deleteChecks(api, checks, remove);
  for (const list of ofKind('list')) revalidationChecks(api, checks, list, validators);
  explorationChecks(api, checks, exploration);
  return checks.checks;
}
