import fc from 'fast-check';
import { stringifyJson } from '../../core/json/exact-json.js';
import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import type { OperationKind } from '../../core/model/operation-kind.js';
import type { ContractSession } from '../contract-session.js';
import type { ItemId } from '../exact-ids.js';
import type { ContractRequest } from '../http-client.js';
import { filterValues, parameterSchema } from '../support/document-facts.js';
import { unknownIds } from '../support/item-samples.js';
import {
  decimalLiterals,
  enumNearMisses,
  integerBoundaries,
  longTextLength,
  textProbes,
} from '../support/schema-probes.js';
import type { ExplorationModel, PageQuery } from './exploration-model.js';
import type { ExplorationRun, GroupMember } from './exploration-run.js';

/** A step of a sequence: its check reads the model (and the budget), its run sends through the sequence. */
export type ExplorationCommand = fc.AsyncCommand<ExplorationModel, ExplorationRun>;

class ListItems implements ExplorationCommand {
  constructor(
    readonly list: OperationSemantics,
    readonly query: Record<string, string>,
    /** Set when the document allows the query, so that the page can be judged whole. */
    readonly page: PageQuery | undefined,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1);
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.list(this.list, this.query, this.page);
  }
  toString(): string {
    return `${this.list.operation.operationId}(${new URLSearchParams(this.query).toString()})`;
  }
}

class CreateItem implements ExplorationCommand {
  constructor(
    readonly create: OperationSemantics,
    readonly body: NonNullable<ContractRequest['body']>,
    readonly what: string,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1);
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.create(this.create, this.body);
  }
  toString(): string {
    return `${this.create.operation.operationId}(${this.what})`;
  }
}

/** A create with the body of an earlier acknowledged create of the run: equal bodies are items of their own. */
class CreateAgain implements ExplorationCommand {
  constructor(readonly index: number) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1) && model.ledger.createdBodies.length > 0;
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.createAgain(this.index);
  }
  toString(): string {
    return `createAgain(earlier body #${this.index})`;
  }
}

/** What a member of a group does, in a command's name. */
function memberText(member: GroupMember): string {
  switch (member.kind) {
    case 'create':
      return `${member.create.operation.operationId}(${member.what})`;
    case 'same-body':
      return `${member.create.operation.operationId}(the same body)`;
    case 'list':
      return `${member.list.operation.operationId}(${new URLSearchParams(member.query).toString()})`;
    default:
      return `${member.read.operation.operationId}(written #${member.index})`;
  }
}

/** A group of requests sent at once: creates with equal and different bodies, racing lists and reads. */
export class SendTogether implements ExplorationCommand {
  constructor(readonly members: readonly GroupMember[]) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(this.members.length);
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.together(this.members);
  }
  toString(): string {
    return `together(${this.members.map(memberText).join(', ')})`;
  }
}

/**
 * Which item a command acts on: one the sequence wrote (by index, deleted
 * ones included), one it saw, one no item has, or a fixed text.
 */
type Target =
  { kind: 'written' | 'known' | 'unknown'; index: number } | { kind: 'fixed'; id: ItemId | string; what: string };

function targetId(model: ExplorationModel, resource: Resource, target: Target, api: ContractSession) {
  if (target.kind === 'fixed') return target.id;
  const ids =
    target.kind === 'written'
      ? model.touched(resource).map((item) => item.id)
      : target.kind === 'known'
        ? model.knownIds(resource)
        : unknownIds(api, resource, model.knownIds(resource));
  return ids[target.index % Math.max(1, ids.length)];
}

function targetText(target: Target): string {
  return target.kind === 'fixed' ? target.what : `${target.kind} #${target.index}`;
}

class ReadItem implements ExplorationCommand {
  constructor(
    readonly api: ContractSession,
    readonly read: OperationSemantics,
    readonly target: Target,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    if (!model.canSend(1)) return false;
    const resource = this.read.resource as Resource;
    if (this.target.kind === 'written') return model.hasWritten(resource);
    if (this.target.kind === 'known') return model.memory.items(resource).length > 0;
    return true;
  }
  async run(model: ExplorationModel, run: ExplorationRun): Promise<void> {
    const id = targetId(model, this.read.resource as Resource, this.target, this.api);
    if (id !== undefined) await run.read(this.read, id, { unknown: this.target.kind === 'unknown' });
  }
  toString(): string {
    return `${this.read.operation.operationId}(${targetText(this.target)})`;
  }
}

/** A replace, an update or a delete of an item the sequence wrote (never one the deployment already held). */
class ChangeItem implements ExplorationCommand {
  constructor(
    readonly change: OperationSemantics,
    readonly index: number,
    readonly body: NonNullable<ContractRequest['body']> | undefined,
    readonly what: string,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1) && model.hasExisting(this.change.resource);
  }
  async run(model: ExplorationModel, run: ExplorationRun): Promise<void> {
    const items = model.written(this.change.resource);
    const item = items[this.index % Math.max(1, items.length)];
    if (!item) return;
    if (this.change.kind === 'delete') await run.remove(this.change, item.id);
    else await run.write(this.change, item.id, this.body);
  }
  toString(): string {
    return `${this.change.operation.operationId}(written #${this.index}${this.what ? `, ${this.what}` : ''})`;
  }
}

/** Several arbitraries of commands as one (one alone stays itself, so that a document of one of each draws as before). */
function oneOf(arbitraries: Array<fc.Arbitrary<ExplorationCommand>>): fc.Arbitrary<ExplorationCommand> | undefined {
  if (arbitraries.length <= 1) return arbitraries[0];
  return fc.oneof(...arbitraries);
}

/** A list with each query the document allows (no parameter, each page size boundary, each filter value) and some it does not. */
function listCommands(
  api: ContractSession,
  list: OperationSemantics,
  { validOnly = false } = {},
): fc.Arbitrary<ExplorationCommand> {
  const { operation, page } = list;
  const pageSchema = page ? parameterSchema(api.compiled, operation, page.name) : undefined;
  const boundaries = pageSchema ? integerBoundaries(pageSchema) : { valid: [], invalid: [] };
  const largest = boundaries.valid.length > 0 ? Number(boundaries.valid.at(-1)) : undefined;
  const pageSize = page?.default ?? largest;
  const sizes =
    largest === undefined
      ? []
      : [
          ...new Set([
            ...boundaries.valid.map(Number),
            ...(pageSize === undefined ? [] : [pageSize]),
            Math.floor((Number(boundaries.valid[0]) + largest) / 2),
          ]),
        ];
  const filterSets = list.filters.map((name) => ({ name, values: filterValues(api.compiled, operation, name) }));
  const enumerated = filterSets.filter(({ values }) => values.length > 0);

  const valid = fc
    .tuple(
      fc.constantFrom<number | undefined>(undefined, ...sizes),
      // Unfiltered about half the time: completeness shows between filtered and unfiltered pages.
      ...enumerated.map(({ values }) => fc.oneof(fc.constant(undefined), fc.constantFrom(...values))),
    )
    .map(([size, ...chosen]) => {
      const query: Record<string, string> = {};
      const filters: Record<string, string> = {};
      enumerated.forEach(({ name }, index) => {
        const value = chosen[index];
        if (value !== undefined) query[name] = filters[name] = value;
      });
      if (size !== undefined && page) query[page.name] = String(size);
      const widest = {
        query: { ...filters, ...(page && largest !== undefined ? { [page.name]: String(largest) } : {}) },
        limit: largest,
      };
      return new ListItems(list, query, { list, query, limit: size ?? pageSize, filters, widest });
    });

  const invalidQueries: Array<Record<string, string>> = [
    ...(page
      ? [
          ...boundaries.invalid.map((value) => ({ [page.name]: String(value) })),
          { [page.name]: `${pageSize ?? 1}.0` },
          { [page.name]: 'twenty' },
        ]
      : []),
    ...enumerated.flatMap(({ name, values }) => [
      { [name]: `unknown-${name}` },
      ...enumNearMisses(values)
        .slice(0, 3)
        .map((miss) => ({ [name]: miss.value })),
    ]),
  ];
  if (invalidQueries.length === 0 || validOnly) return valid;
  const invalid = fc.constantFrom(...invalidQueries).map((query) => new ListItems(list, query, undefined));
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: invalid, weight: 1 });
}

/** The largest page each list allows, of no filter and of each filter value: where the largest pages are. */
export function widestPages(api: ContractSession): PageQuery[] {
  const pages: PageQuery[] = [];
  for (const list of api.api.operations.filter((each) => each.kind === 'list' && !api.removed(each.operation))) {
    const { page } = list;
    const largest = page
      ? Number(integerBoundaries(parameterSchema(api.compiled, list.operation, page.name)).valid.at(-1))
      : undefined;
    const widest = (filters: Record<string, string>): PageQuery => {
      const query = { ...filters, ...(page && largest !== undefined ? { [page.name]: String(largest) } : {}) };
      return { list, query, limit: largest, filters, widest: { query, limit: largest } };
    };
    pages.push(widest({}));
    for (const name of list.filters) {
      for (const value of filterValues(api.compiled, list.operation, name)) pages.push(widest({ [name]: value }));
    }
  }
  return pages;
}

/** A text of `length` characters after the name prefix, so that a limit on stored length shrinks to its boundary. */
function longText(prefix: string, length: number): string {
  const filler = 'Long pet name 0123456789 ';
  return `${prefix}${filler.repeat(Math.ceil(length / filler.length)).slice(0, length)}`;
}

/** A body a write sends, and what it is. */
interface SentBody {
  body: NonNullable<ContractRequest['body']>;
  what: string;
}

/**
 * Bodies of a write derived from its schema: generated valid bodies
 * (optional fields left out at times), each integer at its boundaries, just
 * outside them and written as a decimal (`7.0`, lenient), each enum value and
 * its near misses, awkward text and text of any length, generated invalid
 * bodies, and malformed JSON.
 */
function bodies(api: ContractSession, write: OperationSemantics): fc.Arbitrary<SentBody> {
  const generators = api.bodies(write.operation);
  const { namePrefix } = api.settings;
  const command = (body: NonNullable<ContractRequest['body']>, what: string): SentBody => ({ body, what });
  const send = (body: unknown, what: string) => command({ json: body }, what);
  const withField = (name: string, values: fc.Arbitrary<unknown>, what: string) =>
    fc
      .tuple(generators.valid, values)
      .map(([base, value]) => send({ ...base, [name]: value }, `${what}: ${stringifyJson(value).slice(0, 40)}`));

  const probes: Array<fc.Arbitrary<SentBody>> = [];
  const enumValues: Array<fc.Arbitrary<SentBody>> = [];
  for (const { name, schema } of generators.properties) {
    if (schema.type === 'integer') {
      const { valid, invalid } = integerBoundaries(schema);
      probes.push(withField(name, fc.constantFrom(...valid), `'${name}' at a boundary`));
      if (invalid.length > 0) probes.push(withField(name, fc.constantFrom(...invalid), `'${name}' outside its range`));
      probes.push(withField(name, fc.constantFrom(...decimalLiterals(schema)), `'${name}' written as a decimal`));
    } else if (schema.enum) {
      const values = schema.enum.map(String);
      enumValues.push(withField(name, fc.constantFrom(...values), `'${name}' value`));
      probes.push(
        withField(name, fc.constantFrom(...enumNearMisses(values).map((miss) => miss.value)), `'${name}' near miss`),
      );
    } else if (schema.type === 'string') {
      probes.push(
        withField(name, fc.constantFrom(...textProbes(namePrefix).map((probe) => probe.text)), `'${name}' text`),
      );
      const length = fc.integer({ min: 0, max: longTextLength - namePrefix.length });
      probes.push(
        withField(
          name,
          length.map((n) => longText(namePrefix, n)),
          `'${name}' of any length`,
        ),
      );
    }
  }
  const text = generators.properties.find((p) => p.schema.type === 'string' && !p.schema.enum)?.name ?? '';
  const malformed = fc.constantFrom(
    command({ raw: `{"${text}": "${namePrefix}malformed",` }, 'malformed JSON'),
    command({ raw: '' }, 'an empty body'),
  );
  return fc.oneof(
    { arbitrary: generators.valid.map((body) => send(body, 'a valid body')), weight: 3 },
    // Items of each value of an enumeration: what filtered pages are judged by.
    ...enumValues.map((arbitrary) => ({ arbitrary, weight: 3 })),
    { arbitrary: generators.minimal.map((body) => send(body, 'required fields only')), weight: 1 },
    ...(probes.length > 0 ? [{ arbitrary: fc.oneof(...probes), weight: 3 }] : []),
    { arbitrary: generators.invalid.map(({ body, why }) => send(body, why)), weight: 1 },
    { arbitrary: malformed, weight: 1 },
  );
}

/** A read of an item the sequence wrote or saw, an id no item has, each boundary of the id, and ids not of its type. */
function readCommands(api: ContractSession, read: OperationSemantics): fc.Arbitrary<ExplorationCommand> {
  const { operation, idParameter } = read;
  if (idParameter === undefined) throw new Error(`${operation.operationId} names no item to explore`);
  const idSchema = parameterSchema(api.compiled, operation, idParameter);
  const boundaries = idSchema.type === 'integer' ? integerBoundaries(idSchema) : { valid: [], invalid: [] };
  const fixed = (id: ItemId | string, what: string) => new ReadItem(api, read, { kind: 'fixed', id, what });
  const index = fc.nat({ max: 1_000 });
  const byIndex = (kind: 'written' | 'known' | 'unknown') =>
    index.map((at) => new ReadItem(api, read, { kind, index: at }));
  const notIds = idSchema.type === 'integer' ? [...boundaries.invalid.map(String), '1.0', '1e0', 'not-an-id'] : [];
  return fc.oneof(
    ...(api.settings.readOnly ? [] : [{ arbitrary: byIndex('written'), weight: 4 }]),
    { arbitrary: byIndex('known'), weight: api.settings.readOnly ? 5 : 2 },
    { arbitrary: byIndex('unknown'), weight: 2 },
    ...(boundaries.valid.length > 0
      ? [
          {
            arbitrary: fc.constantFrom(...boundaries.valid).map((id) => fixed(id, `boundary ${String(id)}`)),
            weight: 1,
          },
        ]
      : []),
    ...(notIds.length > 0
      ? [{ arbitrary: fc.constantFrom(...notIds).map((text) => fixed(text, `'${text}'`)), weight: 1 }]
      : []),
  );
}

/** A replace or update of an item the sequence wrote, with bodies derived from its schema, or its delete. */
function changeCommands(api: ContractSession, change: OperationSemantics): fc.Arbitrary<ExplorationCommand> {
  const index = fc.nat({ max: 1_000 });
  if (change.kind === 'delete') return index.map((at) => new ChangeItem(change, at, undefined, ''));
  return fc.tuple(index, bodies(api, change)).map(([at, { body, what }]) => new ChangeItem(change, at, body, what));
}

/**
 * Groups sent at once, of 2 to `--concurrency` requests: a create with a
 * valid body first, then creates with other bodies and with the same body,
 * lists and reads of items the run wrote. Shrinking drops members down to
 * the smallest group that still fails.
 */
function togetherCommands(
  api: ContractSession,
  creates: readonly OperationSemantics[],
  lists: readonly OperationSemantics[],
  reads: readonly OperationSemantics[],
): fc.Arbitrary<ExplorationCommand> | undefined {
  const size = api.settings.concurrency;
  const [create] = creates;
  if (size < 2 || !create) return undefined;
  // Not shrunk: what a group shows is how its requests raced, not their values (each shrink of a race proven
  // only once the settle window has passed would cost that window).
  const validBodies = (each: OperationSemantics) => {
    const generators = api.bodies(each.operation);
    return fc.noShrink(
      fc.oneof(
        generators.valid.map((body) => ({ body: { json: body }, what: 'a valid body' })),
        generators.minimal.map((body) => ({ body: { json: body }, what: 'required fields only' })),
      ),
    );
  };
  const first = validBodies(create).map(({ body, what }): GroupMember => ({ kind: 'create', create, body, what }));
  const others: Array<{ arbitrary: fc.Arbitrary<GroupMember>; weight: number }> = [
    { arbitrary: fc.constant<GroupMember>({ kind: 'same-body', create }), weight: 3 },
    ...creates.map((each) => ({
      arbitrary: validBodies(each).map(({ body, what }): GroupMember => ({ kind: 'create', create: each, body, what })),
      weight: 3,
    })),
    ...lists.map((list) => ({
      arbitrary: listCommands(api, list, { validOnly: true }).map((command): GroupMember => ({
        kind: 'list',
        list,
        query: (command as ListItems).query,
        page: (command as ListItems).page,
      })),
      weight: 1,
    })),
    ...reads.map((read) => ({
      arbitrary: fc.noShrink(fc.nat({ max: 1_000 })).map((index): GroupMember => ({ kind: 'read', read, index })),
      weight: 1,
    })),
  ];
  return fc
    .tuple(first, fc.array(fc.oneof(...others), { minLength: 1, maxLength: size - 1 }))
    .map(([head, rest]) => new SendTogether([head, ...rest]));
}

/** The operations a sequence drives, by kind, in this order; only lists and reads in read-only mode. */
const exploredKinds: readonly OperationKind[] = ['list', 'create', 'read', 'replace', 'update', 'delete'];

/** The operations the exploration drives: every one of an explored kind still in the contract (reads only, read-only). */
export function exploredOperations(api: ContractSession): OperationSemantics[] {
  const allowed = api.settings.readOnly ? ['list', 'read'] : exploredKinds;
  return exploredKinds.flatMap((kind) =>
    api.api.operations.filter(
      (each) => each.kind === kind && allowed.includes(kind) && each.resource && !api.removed(each.operation),
    ),
  );
}

/**
 * The commands a sequence is drawn from, generated per kind from the model:
 * lists, creates (and creates of a body sent before) and reads, then
 * replaces, updates and deletes of items the run wrote, where the document
 * has them, and groups of requests sent at once (lists and reads only in
 * read-only mode).
 */
export function explorationCommands(api: ContractSession): Array<fc.Arbitrary<ExplorationCommand>> {
  const operations = exploredOperations(api);
  const of = (kind: OperationKind) => operations.filter((each) => each.kind === kind);
  const creates = of('create');
  const single = oneOf(
    creates.map((create) => bodies(api, create).map(({ body, what }) => new CreateItem(create, body, what))),
  );
  const together = togetherCommands(api, creates, of('list'), of('read'));
  // The writes that create: one at a time mostly, a body sent before now and then, and groups sent at once.
  const writes = single && [
    { arbitrary: single, weight: 5 },
    { arbitrary: fc.nat({ max: 1_000 }).map((index): ExplorationCommand => new CreateAgain(index)), weight: 1 },
    ...(together ? [{ arbitrary: together, weight: 2 }] : []),
  ];
  const groups = [
    oneOf(of('list').map((list) => listCommands(api, list))),
    writes && fc.oneof(...writes),
    oneOf(of('read').map((read) => readCommands(api, read))),
    oneOf([...of('replace'), ...of('update'), ...of('delete')].map((change) => changeCommands(api, change))),
  ];
  return groups.filter((group) => group !== undefined);
}
