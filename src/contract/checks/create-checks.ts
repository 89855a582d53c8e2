import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { idOf, idText, type ItemId } from '../exact-ids.js';
import { type BodyGenerators, type GeneratedBody, sampleWithSeed } from '../support/body-generators.js';
import { itemsOf, largestPage, largestSize, pageIsWhole, sameId, schemaName } from '../support/item-samples.js';
import { accessOf, itemPath, listBack, readBack, type ResourceAccess } from '../support/read-back.js';
import { sendTogether } from '../support/send-together.js';
import { decimalLiterals, enumNearMisses, integerBoundaries, powerName, textProbes } from '../support/schema-probes.js';

const generatedInvalidCount = 12;
const generatedValidCount = 3;

/** The body a write sends with every documented property set: what the checks of creates and replaces start from. */
export interface BodyShapes {
  /**
   * A valid body with every documented property set, each enumeration at its
   * `pick`-th value (counted from the end), a recognisable text and small
   * integers (the boundary probes cover the whole range; here a refusal of
   * large values must not hide other faults).
   */
  full(pick?: number): Record<string, unknown>;
  /** A plain valid body (small integers, a plain text) with one field set to the probe value. */
  probe(field: string, value: unknown): Record<string, unknown>;
  /** The first free-text property (its name, e.g. for a malformed body), if the body has one. */
  text: string | undefined;
}

export function bodyShapes(api: ContractSession, write: OperationSemantics, generators: BodyGenerators): BodyShapes {
  const { namePrefix, seed } = api.settings;
  const validate = write.operation.requestBody?.validators.get('application/json');
  const text = generators.properties.find((p) => p.schema.type === 'string' && !p.schema.enum)?.name;
  let base: Record<string, unknown> | undefined;
  const full = (pick = 1): Record<string, unknown> => {
    if (!base) {
      const [sample] = sampleWithSeed(generators.valid, seed + 1, 1);
      const body: Record<string, unknown> = { ...sample };
      for (const p of generators.properties) {
        if (body[p.name] !== undefined) continue;
        const [value] = sampleWithSeed(
          generators.valid.filter((b) => b[p.name] !== undefined),
          seed + 2,
          1,
        );
        body[p.name] = value?.[p.name];
      }
      for (const p of generators.properties) if (p.schema.type === 'integer') body[p.name] = 1 + (seed % 997);
      base = body;
    }
    // A reference names an item the run showed exists (read at each call: the run learns more as it goes).
    for (const [field, pool] of generators.references) {
      const [existing] = pool();
      if (existing !== undefined) base[field] = existing;
    }
    const body = { ...base };
    for (const p of generators.properties) {
      const values = p.schema.enum;
      if (values && values.length > 0) body[p.name] = values[(values.length - (pick % values.length)) % values.length];
    }
    // Names as real data has them, beyond ASCII, in every check that reads back and lists what it wrote.
    if (text) body[text] = pick === 1 ? `${namePrefix}Füchslein 🦊` : `${namePrefix}Zoë written-${pick}`;
    if (!validate?.(body))
      throw new Error(`could not build a valid ${write.operation.operationId} body from the document`);
    return body;
  };
  const probe = (field: string, value: unknown): Record<string, unknown> => {
    const body: Record<string, unknown> = { ...full(), ...(text ? { [text]: `${namePrefix}probe` } : {}) };
    for (const p of generators.properties) {
      if (p.schema.type === 'integer' && !generators.references.has(p.name)) body[p.name] = 1;
    }
    return { ...body, [field]: value };
  };
  return { full, probe, text };
}

/** Sends each body to a write; returns the ids of the items it acknowledged (or of the one it acts on). */
export async function sendEach(
  api: ContractSession,
  write: OperationSemantics,
  bodies: ReadonlyArray<{ body: unknown } | GeneratedBody>,
  path?: string,
): Promise<ItemId[]> {
  const resource = write.resource as Resource;
  const ids: ItemId[] = [];
  for (const { body } of bodies) {
    const response = await api.call(write.operation, { body: { json: body }, ...(path ? { path } : {}) });
    const id = idOf(response.body, resource);
    if (response.status >= 200 && response.status < 300 && id !== undefined) ids.push(id);
  }
  return ids;
}

/**
 * The schema probes of a create's body (boundaries, text, enum values,
 * decimal literals), each sent, and what it created read back.
 */
function probeChecks(
  api: ContractSession,
  create: OperationSemantics,
  access: ResourceAccess,
  add: (name: string, run: () => Promise<void>) => void,
): void {
  const generators = api.bodies(create.operation);
  const shapes = bodyShapes(api, create, generators);
  const validate = create.operation.requestBody?.validators.get('application/json');
  const { namePrefix } = api.settings;
  const send = (bodies: Array<{ body: unknown }>) => sendEach(api, create, bodies);
  const sendAndRead = async (bodies: Array<{ body: unknown }>) => {
    const ids = await send(bodies);
    await readBack(api, access, ids);
    await listBack(api, access, ids);
  };

  for (const { name, schema } of generators.properties) {
    if (schema.type === 'integer') {
      const { valid, invalid } = integerBoundaries(schema);
      add(`keeps exactly each boundary value of '${name}' it accepts (${valid.map(powerName).join(', ')})`, () =>
        sendAndRead(valid.map((value) => ({ body: shapes.probe(name, value) }))),
      );
      if (invalid.length > 0) {
        add(
          `answers 400 with an Error to '${name}' just outside its range (${invalid.map(powerName).join(', ')})`,
          async () => void (await send(invalid.map((value) => ({ body: shapes.probe(name, value) })))),
        );
      }
      const literals = decimalLiterals(schema);
      add(
        `refuses, or reads as integers (lenient), '${name}' written as a decimal or with an exponent (${literals.join(', ')})`,
        () => sendAndRead(literals.map((literal) => ({ body: shapes.probe(name, literal) }))),
      );
    } else if (schema.enum) {
      const values = schema.enum.map(String);
      add(`keeps each value of '${name}' (${values.join(', ')})`, () =>
        sendAndRead(values.map((value) => ({ body: shapes.probe(name, value) }))),
      );
      const misses = enumNearMisses(values);
      add(
        `answers 400 with an Error to each of ${misses.length} case variants and near misses of '${name}' values`,
        async () => void (await send(misses.map(({ value }) => ({ body: shapes.probe(name, value) })))),
      );
    } else if (schema.type === 'string') {
      const probes = textProbes(namePrefix).filter(({ text }) => validate?.(shapes.probe(name, text)));
      add(
        `keeps byte for byte each kind of text in '${name}' it accepts (${probes.map((p) => p.what).join(', ')})`,
        () => sendAndRead(probes.map(({ text }) => ({ body: shapes.probe(name, text) }))),
      );
    }
  }
}

/**
 * An item created for a check that changes or removes it (never one the
 * deployment already held), with every documented field set; undefined when
 * the resource has no create, or it was refused.
 */
export async function createFor(api: ContractSession, access: ResourceAccess): Promise<ItemId | undefined> {
  const { create, resource } = access;
  if (!create) return undefined;
  const shapes = bodyShapes(api, create, api.bodies(create.operation));
  const [id] = await sendEach(api, create, [{ body: shapes.full() }]);
  if (id !== undefined) await readBack(api, access, [id]);
  if (id === undefined)
    api.unproven(`no ${resource.itemName} could be created through ${create.operation.operationId}`);
  return id;
}

/**
 * A create operation: the oracle judges every answer (a 201 echoes what was
 * sent byte for byte with a new id; an invalid body gets 400; a valid value
 * may be refused with a clean 400, as a warning; `7.0` accepted is lenient, a
 * warning) and the reference model remembers each item created, so that
 * reading it back with other values, or not at all once the settle window
 * has passed, fails. These checks send the bodies that show those faults,
 * and read what they created back through the resource's read operation, or,
 * without one, through its list.
 */
export function createChecks(api: ContractSession, checks: CheckList, create: OperationSemantics): void {
  const { operation } = create;
  const resource = create.resource as Resource;
  const access = accessOf(api, resource);
  const { namePrefix, seed } = api.settings;
  const name = operation.operationId;
  const generators = api.bodies(operation);
  const shapes = bodyShapes(api, create, generators);
  const add = (title: string, run: () => Promise<void>) => checks.add(name, title, run, { writes: true });
  const reader = access.read?.operation.operationId ?? access.list?.operation.operationId ?? 'a read';

  let created: { id: ItemId; body: Record<string, unknown> } | undefined;

  add(`answers 201 with a ${schemaName(resource)} echoing what was sent and a new ${resource.idField}`, async () => {
    // Listed first, so that the model knows the ids that exist: a create that hands one out again fails.
    if (access.list) await largestPage(api, access.list);
    const body = shapes.full();
    const response = await api.call(operation, { body: { json: body } });
    api.expectStatus(response, 201, 'a create with every field set');
    const id = idOf(response.body, resource);
    api.verify(
      'created-echo',
      id !== undefined,
      `${name} answered 201 without ${resource.idType === 'integer' ? 'an int64' : 'a text'} ${resource.idField}`,
    );
    created = { id, body };
  });

  add(`makes the created ${resource.itemName} readable through ${reader}, within the settle window`, async () => {
    if (!created) {
      api.unproven(`no ${resource.itemName} was created by the previous check`);
      return;
    }
    await readBack(api, access, [created.id]);
  });

  for (const list of access.list ? [access.list] : []) {
    const filters = list.filters.filter((filter) => resource.fields.includes(filter));
    if (filters.length === 0) continue;
    add(
      `shows the created ${resource.itemName} in a list filtered by its ${filters.join(' and ')}, within the settle window`,
      async () => {
        if (!created) {
          api.unproven(`no ${resource.itemName} was created by the first check`);
          return;
        }
        const { id } = created;
        // Filtered by the values it is read back with: a state may have moved since the create (transitions are
        // not shown), which the model observes; listing by the value sent would take that for a lost write.
        let values: Record<string, unknown> = created.body;
        if (access.read) {
          const read = await api.call(access.read.operation, { path: itemPath(api, access.read, id) });
          if (read.status === 200 && typeof read.body === 'object' && read.body !== null)
            values = read.body as Record<string, unknown>;
        }
        const query: Record<string, string> = {};
        for (const filter of filters) if (values[filter] !== undefined) query[filter] = String(values[filter]);
        const shownAs = new URLSearchParams(query).toString();
        let last: ReturnType<typeof itemsOf> = [];
        // Asked again until it shows, or until the page cannot prove it missing (cut by its size or a cap): waiting
        // out the settle window then would prove nothing.
        const seen = await api.eventually(
          `created ${resource.itemName} ${idText(id)} listed with ${shownAs}`,
          async () => {
            const response = await largestPage(api, list, query);
            last = itemsOf(resource, response);
            if (response.status === 200 && last.some((item) => sameId(item.id, id))) return true;
            return pageIsWhole(api, resource, last, largestSize(list)) ? undefined : false;
          },
        );
        if (seen) return;
        if (!pageIsWhole(api, resource, last, largestSize(list))) {
          api.unproven(
            `created ${resource.itemName} ${idText(id)} is not on the largest page of ${shownAs} (${last.length} ${resource.name}), which may be cut by the page size, a page cap or the order: visibility in the list cannot be proven`,
          );
          return;
        }
        if (access.read) {
          // Read once more: a state that moved while the page was listed would explain it.
          const again = await api.call(access.read.operation, { path: itemPath(api, access.read, id) });
          const now = again.body as Record<string, unknown> | undefined;
          if (again.status === 200 && filters.some((filter) => String(now?.[filter]) !== query[filter])) {
            api.unproven(
              `created ${resource.itemName} ${idText(id)} moved from ${shownAs} while it was listed: its listing cannot be checked`,
            );
            return;
          }
          if (again.status !== 200) {
            // A 404 the model judged (a lost write once the window has passed); anything else proves nothing here.
            if (again.status !== 404)
              api.unproven(`created ${resource.itemName} ${idText(id)} could not be read again (${again.status})`);
            return;
          }
        }
        const page = `${list.operation.operationId}?${shownAs}, a page of ${last.length} ${resource.name} that holds them all, ${api.settings.settleMs} ms after it was created`;
        // Read as holding these values, yet left out of their page: hidden, not lost. Without a read, it is lost.
        if (access.read) {
          api.verify(
            'filter-complete',
            false,
            `created ${resource.itemName} ${idText(id)} is missing from ${page}, while ${access.read.operation.operationId} answers it with ${shownAs.replaceAll('&', ' and ')}`,
          );
        }
        api.verify(
          'write-kept',
          false,
          `lost write: created ${resource.itemName} ${idText(id)} is missing from ${page}`,
        );
      },
    );
  }

  add(
    `answers two creates of equal bodies with two ${resource.name}, each with ${resource.idType === 'integer' ? 'an' : 'a'} ${resource.idField} of its own`,
    async () => {
      // Two clients may well add two cats named Tom: equal bodies are two items, never one.
      const body = shapes.full(7);
      const ids: ItemId[] = [];
      for (const attempt of [1, 2]) {
        const response = await api.call(operation, { body: { json: body } });
        api.expectStatus(response, 201, `create ${attempt} of an equal body`);
        const id = idOf(response.body, resource);
        if (id !== undefined) ids.push(id);
      }
      api.verify(
        'created-id-new',
        new Set(ids.map(idText)).size === ids.length,
        `${name} answered two creates of an equal body with the same ${resource.itemName} (${resource.idField} ${ids.map(idText).join(', ')})`,
      );
      await readBack(api, access, ids);
      await listBack(api, access, ids);
    },
  );

  const together = Math.min(api.settings.concurrency, 4);
  if (together >= 2) {
    add(
      `keeps each of the creates sent at once, each with ${resource.idType === 'integer' ? 'an' : 'a'} ${resource.idField} of its own (${together} requests: equal and different bodies${access.list ? ', racing a list' : ''})`,
      async () => {
        // At most --concurrency requests in all: two creates of an equal body, others of their own, and a list.
        const lists = access.list ? [{ operation: access.list.operation, request: { query: {} } }] : [];
        const creates = Math.max(2, together - lists.length);
        const bodies = Array.from({ length: creates }, (_, index) => shapes.full(index < 2 ? 8 : 8 + index));
        const { responses } = await sendTogether(api, [
          ...bodies.map((body) => ({ operation, request: { body: { json: body } } })),
          ...lists,
        ]);
        const ids = responses
          .slice(0, bodies.length)
          .flatMap((response) => (response.status === 201 ? (idOf(response.body, resource) ?? []) : []));
        if (ids.length < bodies.length)
          api.unproven(`${bodies.length - ids.length} of ${bodies.length} creates sent at once were not answered 201`);
        await readBack(api, access, ids);
        await listBack(api, access, ids);
      },
    );
  }

  const optional = generators.properties.filter((p) => !p.required);
  if (optional.length > 0) {
    add(`keeps a valid ${schemaName(resource)} when each optional field is left out`, async () => {
      const ids = await sendEach(
        api,
        create,
        optional.map((p) => {
          const { [p.name]: _left, ...body } = shapes.probe(p.name, undefined);
          return { body };
        }),
      );
      await readBack(api, access, ids);
      for (const id of ids) {
        const shown = api.model.item(resource, id)?.seen;
        if (!shown) continue;
        for (const p of optional) {
          const value = shown[p.name];
          api.note(
            'default-status',
            `a ${resource.itemName} created without '${p.name}' has ${p.name} ${value === undefined ? '(absent)' : JSON.stringify(value)}`,
          );
        }
      }
    });
  }

  add('answers 400 with an Error for each missing required or wrong-typed field and bad enum value', async () => {
    const bodies = generators.everyRule(shapes.full());
    api.verify('invalid-input-refused', bodies.length > 0, `the document gives no rule to break for ${name} bodies`);
    await sendEach(api, create, bodies);
  });

  add('answers 400 with an Error for malformed JSON', async () => {
    await api.call(operation, { body: { raw: `{"${shapes.text ?? resource.idField}": "${namePrefix}malformed",` } });
  });

  add('answers 400 with an Error for an empty body', async () => {
    await api.call(operation, { body: { raw: '' } });
  });

  add(`answers 400 to ${generatedInvalidCount} generated invalid bodies (fast-check, seed ${seed})`, async () => {
    await sendEach(api, create, sampleWithSeed(generators.invalid, seed, generatedInvalidCount));
  });

  add(
    `answers 201 with an echoing ${schemaName(resource)} to ${generatedValidCount} generated valid bodies (fast-check, seed ${seed})`,
    async () => {
      const bodies = sampleWithSeed(generators.valid, seed + 3, generatedValidCount).map((body) => ({ body }));
      const ids = await sendEach(api, create, bodies);
      await readBack(api, access, ids);
      await listBack(api, access, ids);
    },
  );

  probeChecks(api, create, access, add);
}
