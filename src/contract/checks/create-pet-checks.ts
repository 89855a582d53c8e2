import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { type Int64, idOf, idText } from '../exact-ids.js';
import { type GeneratedBody, sampleWithSeed } from '../support/body-generators.js';
import { limitFacts, statusValues } from '../support/document-facts.js';
import { largestPage, pageIsWhole, petsOf, sameId } from '../support/pet-samples.js';
import { decimalLiterals, enumNearMisses, integerBoundaries, powerName, textProbes } from '../support/schema-probes.js';

const generatedInvalidCount = 12;
const generatedValidCount = 3;

/**
 * createPet: the oracle judges every answer (a 201 echoes what was sent
 * byte for byte with a new id; an invalid body gets 400; a valid value may
 * be refused with a clean 400, as a warning; `7.0` accepted is lenient, a
 * warning) and remembers each pet created, so that reading it back with
 * other values, or not at all once the settle window has passed, fails.
 * These checks send the bodies that show those faults.
 */
export function createPetChecks(api: ContractSession, checks: CheckList): void {
  const { namePrefix, seed } = api.settings;
  const validate = api.operation('createPet').requestBody?.validators.get('application/json');
  const generators = api.bodies('createPet');
  const statuses = statusValues(api.compiled, api.operation('listPets'));
  const pageLimit = limitFacts(api.compiled, api.operation('listPets')).maximum;
  const add = (name: string, run: () => Promise<void>) => checks.add('createPet', name, run, { writes: true });

  let full: Record<string, unknown> | undefined;
  /**
   * A valid body with every documented property set, the last status value, a
   * recognisable name and small integers (the boundary probes below cover the
   * whole range; here a refusal of large values must not hide other faults).
   */
  function fullBody(): Record<string, unknown> {
    if (full) return { ...full };
    const [sample] = sampleWithSeed(generators.valid, seed + 1, 1);
    const body: Record<string, unknown> = { ...sample };
    for (const p of generators.properties) {
      if (body[p.name] === undefined) {
        const [value] = sampleWithSeed(
          generators.valid.filter((b) => b[p.name] !== undefined),
          seed + 2,
          1,
        );
        body[p.name] = value?.[p.name];
      }
    }
    for (const p of generators.properties) if (p.schema.type === 'integer') body[p.name] = 1 + (seed % 997);
    body.status = statuses[statuses.length - 1];
    if (!validate?.(body)) throw new Error('could not build a valid createPet body from openapi.yaml');
    full = body;
    return { ...body };
  }

  /** A plain valid body (small integers, a plain name) with one field set to the probe value. */
  function probeBody(field: string, value: unknown): Record<string, unknown> {
    const base: Record<string, unknown> = { ...fullBody(), name: `${namePrefix}probe` };
    for (const p of generators.properties) if (p.schema.type === 'integer') base[p.name] = 1;
    return { ...base, [field]: value };
  }

  /** Sends each body; the oracle holds each answer to what the document says of it. */
  async function sendEach(bodies: ReadonlyArray<{ body: unknown } | GeneratedBody>): Promise<Int64[]> {
    const ids: Int64[] = [];
    for (const { body } of bodies) {
      const response = await api.call('createPet', { body: { json: body } });
      const id = idOf(response.body);
      if (response.status === 201 && id !== undefined) ids.push(id);
    }
    return ids;
  }

  /**
   * Reads each created pet back through getPet, asking again until every one
   * is found or the settle window has passed; the oracle's memory fails a pet
   * read back with other values, or still not found after the window.
   */
  async function readBack(ids: readonly Int64[]): Promise<void> {
    let missing = [...ids];
    await api.eventually(`${ids.length} created pet(s) read back`, async () => {
      const still: Int64[] = [];
      for (const id of missing) {
        const read = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
        if (read.status === 404) still.push(id);
      }
      missing = still;
      return missing.length === 0 ? true : undefined;
    });
  }

  let created: { id: Int64; body: Record<string, unknown> } | undefined;

  add('answers 201 with a Pet echoing what was sent and a new id', async () => {
    // Listed first, so that the oracle knows the ids that exist: a create that hands one out again fails.
    await largestPage(api);
    const body = fullBody();
    const response = await api.call('createPet', { body: { json: body } });
    api.expectStatus(response, 201, 'a create with every field set');
    const id = idOf(response.body);
    api.verify('created-echo', id !== undefined, 'createPet answered 201 without an int64 id');
    created = { id, body };
  });

  add('makes the created pet readable through getPet, within the settle window', async () => {
    if (!created) {
      api.unproven('no pet was created by the previous check');
      return;
    }
    await readBack([created.id]);
  });

  add('shows the created pet in a list filtered by its status, within the settle window', async () => {
    if (!created) {
      api.unproven('no pet was created by the first check');
      return;
    }
    const { id } = created;
    const status = String(created.body.status);
    let last: ReturnType<typeof petsOf> = [];
    // Asked again until it shows, or until the page cannot prove it missing (cut by its size or a cap): waiting
    // out the settle window then would prove nothing.
    const seen = await api.eventually(`created pet ${idText(id)} listed with status=${status}`, async () => {
      const response = await largestPage(api, { status });
      last = petsOf(response);
      if (response.status === 200 && last.some((pet) => sameId(pet.id, id))) return true;
      return pageIsWhole(api, last, pageLimit) ? undefined : false;
    });
    if (seen) return;
    if (!pageIsWhole(api, last, pageLimit)) {
      api.unproven(
        `created pet ${idText(id)} is not on the largest page of status=${status} (${last.length} pets), which may be cut by the page size, a page cap or the order: visibility in the list cannot be proven`,
      );
      return;
    }
    api.verify(
      'write-kept',
      false,
      `lost write: created pet ${idText(id)} is missing from listPets?status=${status}, a page of ${last.length} pets that holds them all, ${api.settings.settleMs} ms after it was created`,
    );
  });

  add('keeps a valid Pet when each optional field is left out', async () => {
    const optional = generators.properties.filter((p) => !p.required);
    const ids = await sendEach(
      optional.map((p) => {
        const { [p.name]: _left, ...body } = probeBody(p.name, undefined);
        return { body };
      }),
    );
    await readBack(ids);
    for (const id of ids) {
      const read = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
      if (read.status !== 200) continue;
      for (const p of optional) {
        const value = (read.body as Record<string, unknown> | undefined)?.[p.name];
        api.note(
          'default-status',
          `a pet created without '${p.name}' has ${p.name} ${value === undefined ? '(absent)' : JSON.stringify(value)}`,
        );
      }
    }
  });

  add('answers 400 with an Error for each missing required or wrong-typed field and bad enum value', async () => {
    const bodies = generators.everyRule(fullBody());
    api.verify('invalid-input-refused', bodies.length > 0, 'the document gives no rule to break for createPet bodies');
    await sendEach(bodies);
  });

  add('answers 400 with an Error for malformed JSON', async () => {
    await api.call('createPet', { body: { raw: `{"name": "${namePrefix}malformed",` } });
  });

  add('answers 400 with an Error for an empty body', async () => {
    await api.call('createPet', { body: { raw: '' } });
  });

  add(`answers 400 to ${generatedInvalidCount} generated invalid bodies (fast-check, seed ${seed})`, async () => {
    await sendEach(sampleWithSeed(generators.invalid, seed, generatedInvalidCount));
  });

  add(
    `answers 201 with an echoing Pet to ${generatedValidCount} generated valid bodies (fast-check, seed ${seed})`,
    async () => {
      await readBack(
        await sendEach(sampleWithSeed(generators.valid, seed + 3, generatedValidCount).map((body) => ({ body }))),
      );
    },
  );

  // Probes derived from each property's schema (boundaries, text, enum values, decimal literals).
  for (const { name, schema } of generators.properties) {
    if (schema.type === 'integer') {
      const { valid, invalid } = integerBoundaries(schema);
      add(
        `keeps exactly each boundary value of '${name}' it accepts (${valid.map(powerName).join(', ')})`,
        async () => {
          await readBack(await sendEach(valid.map((value) => ({ body: probeBody(name, value) }))));
        },
      );
      if (invalid.length > 0) {
        add(
          `answers 400 with an Error to '${name}' just outside its range (${invalid.map(powerName).join(', ')})`,
          async () => {
            await sendEach(invalid.map((value) => ({ body: probeBody(name, value) })));
          },
        );
      }
      const literals = decimalLiterals(schema);
      add(
        `refuses, or reads as integers (lenient), '${name}' written as a decimal or with an exponent (${literals.join(', ')})`,
        async () => {
          await readBack(await sendEach(literals.map((literal) => ({ body: probeBody(name, literal) }))));
        },
      );
    } else if (schema.enum) {
      const values = schema.enum.map(String);
      add(`keeps each value of '${name}' (${values.join(', ')})`, async () => {
        await readBack(await sendEach(values.map((value) => ({ body: probeBody(name, value) }))));
      });
      const misses = enumNearMisses(values);
      add(
        `answers 400 with an Error to each of ${misses.length} case variants and near misses of '${name}' values`,
        async () => {
          await sendEach(misses.map(({ value }) => ({ body: probeBody(name, value) })));
        },
      );
    } else if (schema.type === 'string') {
      const probes = textProbes(namePrefix).filter(({ text }) => validate?.(probeBody(name, text)));
      add(
        `keeps byte for byte each kind of text in '${name}' it accepts (${probes.map((p) => p.what).join(', ')})`,
        async () => {
          await readBack(await sendEach(probes.map(({ text }) => ({ body: probeBody(name, text) }))));
        },
      );
    }
  }
}
