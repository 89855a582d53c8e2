import fc from 'fast-check';
import { stringifyJson } from '../../core/json/exact-json.js';
import { describeApi } from '../../core/model/describe-api.js';
import type { ContractSession } from '../contract-session.js';
import { type Int64, unknownIdCandidates } from '../exact-ids.js';
import type { ContractRequest } from '../http-client.js';
import { parameterSchema } from '../support/document-facts.js';
import {
  decimalLiterals,
  enumNearMisses,
  integerBoundaries,
  longTextLength,
  textProbes,
} from '../support/schema-probes.js';
import type { ExplorationModel, PageQuery } from './exploration-model.js';
import type { ExplorationRun } from './exploration-run.js';

/** A step of a sequence: its check reads the model (and the budget), its run sends through the sequence. */
export type ExplorationCommand = fc.AsyncCommand<ExplorationModel, ExplorationRun>;

class ListPets implements ExplorationCommand {
  constructor(
    readonly query: Record<string, string>,
    /** Set when the document allows the query, so that the page can be judged whole. */
    readonly page: PageQuery | undefined,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1);
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.listPets(this.query, this.page);
  }
  toString(): string {
    return `listPets(${new URLSearchParams(this.query).toString()})`;
  }
}

class CreatePet implements ExplorationCommand {
  constructor(
    readonly body: NonNullable<ContractRequest['body']>,
    readonly what: string,
  ) {}
  check(model: Readonly<ExplorationModel>): boolean {
    return model.canSend(1);
  }
  run(_model: ExplorationModel, run: ExplorationRun): Promise<void> {
    return run.createPet(this.body);
  }
  toString(): string {
    return `createPet(${this.what})`;
  }
}

/** Which pet getPet asks for: one the model knows (by index), one no pet has, or a fixed text. */
type GetTarget =
  { kind: 'created' | 'known' | 'unknown'; index: number } | { kind: 'fixed'; petId: Int64 | string; what: string };

class GetPet implements ExplorationCommand {
  constructor(readonly target: GetTarget) {}
  check(model: Readonly<ExplorationModel>): boolean {
    if (!model.canSend(1)) return false;
    if (this.target.kind === 'created') return model.created.size > 0;
    if (this.target.kind === 'known') return model.seen.size > 0;
    return true;
  }
  async run(model: ExplorationModel, run: ExplorationRun): Promise<void> {
    const { target } = this;
    if (target.kind === 'fixed') {
      await run.getPet(target.petId);
      return;
    }
    const ids =
      target.kind === 'created'
        ? model.createdIds()
        : target.kind === 'known'
          ? model.knownIds()
          : unknownIdCandidates(model.knownIds());
    const id = ids[target.index % Math.max(1, ids.length)];
    if (id !== undefined) await run.getPet(id, { unknown: target.kind === 'unknown' });
  }
  toString(): string {
    const { target } = this;
    return target.kind === 'fixed' ? `getPet(${target.what})` : `getPet(${target.kind} #${target.index})`;
  }
}

/** listPets with each query the document allows (no parameter, each limit boundary, each filter value) and some it does not. */
function listCommands(api: ContractSession): fc.Arbitrary<ExplorationCommand> {
  const operation = api.operation('listPets');
  const facts = describeApi(api.compiled).of(operation);
  const limit = facts.page;
  if (!limit) throw new Error('openapi.yaml gives listPets no page-size parameter to explore');
  const limitSchema = parameterSchema(api.compiled, operation, limit.name);
  const boundaries = integerBoundaries(limitSchema);
  const largest = Number(boundaries.valid.at(-1));
  const pageSize = limit.default ?? largest;
  const sizes = [
    ...new Set([...boundaries.valid.map(Number), pageSize, Math.floor((Number(boundaries.valid[0]) + largest) / 2)]),
  ];
  const filterValues = facts.filters.map((name) => ({
    name,
    values: (parameterSchema(api.compiled, operation, name).enum ?? []).map(String),
  }));

  const valid = fc
    .tuple(
      fc.constantFrom<number | undefined>(undefined, ...sizes),
      // Unfiltered about half the time: completeness shows between filtered and unfiltered pages.
      ...filterValues.map(({ values }) => fc.oneof(fc.constant(undefined), fc.constantFrom(...values))),
    )
    .map(([size, ...chosen]) => {
      const query: Record<string, string> = {};
      const filters: Record<string, string> = {};
      filterValues.forEach(({ name }, index) => {
        const value = chosen[index];
        if (value !== undefined) query[name] = filters[name] = value;
      });
      if (size !== undefined) query[limit.name] = String(size);
      const widest = { query: { ...filters, [limit.name]: String(largest) }, limit: largest };
      return new ListPets(query, { query, limit: size ?? pageSize, filters, widest });
    });

  const invalidQueries: Array<Record<string, string>> = [
    ...boundaries.invalid.map((value) => ({ [limit.name]: String(value) })),
    { [limit.name]: `${pageSize}.0` },
    { [limit.name]: 'twenty' },
    ...filterValues.flatMap(({ name, values }) => [
      { [name]: `unknown-${name}` },
      ...enumNearMisses(values)
        .slice(0, 3)
        .map((miss) => ({ [name]: miss.value })),
    ]),
  ];
  const invalid = fc.constantFrom(...invalidQueries).map((query) => new ListPets(query, undefined));
  return fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: invalid, weight: 1 });
}

/** The largest page the document allows, of no filter and of each filter value: where the largest pages are. */
export function widestPages(api: ContractSession): PageQuery[] {
  const operation = api.operation('listPets');
  const facts = describeApi(api.compiled).of(operation);
  if (!facts.page) return [];
  const largest = Number(integerBoundaries(parameterSchema(api.compiled, operation, facts.page.name)).valid.at(-1));
  const page = (filters: Record<string, string>): PageQuery => {
    const query = { ...filters, [facts.page?.name ?? 'limit']: String(largest) };
    return { query, limit: largest, filters, widest: { query, limit: largest } };
  };
  const pages = [page({})];
  for (const name of facts.filters) {
    for (const value of parameterSchema(api.compiled, operation, name).enum ?? [])
      pages.push(page({ [name]: String(value) }));
  }
  return pages;
}

/** A text of `length` characters after the name prefix, so that a limit on stored length shrinks to its boundary. */
function longText(prefix: string, length: number): string {
  const filler = 'Long pet name 0123456789 ';
  return `${prefix}${filler.repeat(Math.ceil(length / filler.length)).slice(0, length)}`;
}

/**
 * createPet with bodies derived from its schema: generated valid bodies
 * (optional fields left out at times), each integer at its boundaries, just
 * outside them and written as a decimal (`7.0`, lenient), each enum value and
 * its near misses, awkward text and text of any length, generated invalid
 * bodies, and malformed JSON.
 */
function createCommands(api: ContractSession): fc.Arbitrary<ExplorationCommand> {
  const generators = api.bodies('createPet');
  const { namePrefix } = api.settings;
  const create = (body: unknown, what: string) => new CreatePet({ json: body }, what);
  const withField = (name: string, values: fc.Arbitrary<unknown>, what: string) =>
    fc
      .tuple(generators.valid, values)
      .map(([base, value]) => create({ ...base, [name]: value }, `${what}: ${stringifyJson(value).slice(0, 40)}`));

  const probes: Array<fc.Arbitrary<ExplorationCommand>> = [];
  const enumValues: Array<fc.Arbitrary<ExplorationCommand>> = [];
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
  const malformed = fc.constantFrom(
    new CreatePet({ raw: `{"name": "${namePrefix}malformed",` }, 'malformed JSON'),
    new CreatePet({ raw: '' }, 'an empty body'),
  );
  return fc.oneof(
    { arbitrary: generators.valid.map((body) => create(body, 'a valid body')), weight: 3 },
    // Pets of each status: what filtered pages are judged by.
    ...enumValues.map((arbitrary) => ({ arbitrary, weight: 3 })),
    { arbitrary: generators.minimal.map((body) => create(body, 'required fields only')), weight: 1 },
    { arbitrary: fc.oneof(...probes), weight: 3 },
    { arbitrary: generators.invalid.map(({ body, why }) => create(body, why)), weight: 1 },
    { arbitrary: malformed, weight: 1 },
  );
}

/** getPet for a pet the sequence created or saw, an id no pet has, each boundary of the id, and ids that are not int64. */
function getCommands(api: ContractSession): fc.Arbitrary<ExplorationCommand> {
  const operation = api.operation('getPet');
  const idParameter = describeApi(api.compiled).of(operation).idParameter;
  if (idParameter === undefined) throw new Error('openapi.yaml gives getPet no id parameter to explore');
  const boundaries = integerBoundaries(parameterSchema(api.compiled, operation, idParameter));
  const fixed = (petId: Int64 | string, what: string) => new GetPet({ kind: 'fixed', petId, what });
  const index = fc.nat({ max: 1_000 });
  const byIndex = (kind: 'created' | 'known' | 'unknown') => index.map((at) => new GetPet({ kind, index: at }));
  const notIds = [...boundaries.invalid.map(String), '1.0', '1e0', 'not-an-id'];
  return fc.oneof(
    ...(api.settings.readOnly ? [] : [{ arbitrary: byIndex('created'), weight: 4 }]),
    { arbitrary: byIndex('known'), weight: api.settings.readOnly ? 5 : 2 },
    { arbitrary: byIndex('unknown'), weight: 2 },
    { arbitrary: fc.constantFrom(...boundaries.valid).map((id) => fixed(id, `boundary ${String(id)}`)), weight: 1 },
    { arbitrary: fc.constantFrom(...notIds).map((text) => fixed(text, `'${text}'`)), weight: 1 },
  );
}

/** The commands a sequence is drawn from: list, create and get (list and get only in read-only mode). */
export function explorationCommands(api: ContractSession): Array<fc.Arbitrary<ExplorationCommand>> {
  return api.settings.readOnly
    ? [listCommands(api), getCommands(api)]
    : [listCommands(api), createCommands(api), getCommands(api)];
}
