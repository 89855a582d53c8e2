import { describe, it } from 'vitest';
import type { Int64 } from '../src/contract/exact-ids.js';
import { idOf, idText } from '../src/contract/exact-ids.js';
import { type GeneratedBody, sampleWithSeed } from './support/body-generators.js';
import { type ContractSession, forEachDeployment } from './support/contract-session.js';
import { limitFacts, statusValues } from './support/document-facts.js';
import { echoMismatches, largestPage, pageIsWhole, petsOf, sameId, shown } from './support/pet-samples.js';
import { decimalLiterals, enumNearMisses, integerBoundaries, powerName, textProbes } from './support/schema-probes.js';

const generatedInvalidCount = 12;
const generatedValidCount = 3;

forEachDeployment((api: ContractSession) => {
  const { readOnly, namePrefix, seed } = api.settings;
  const validate = api.operation('createPet').requestBody?.validators.get('application/json');
  const generators = api.bodies('createPet');
  const statuses = statusValues(api.compiled, api.operation('listPets'));
  const pageLimit = limitFacts(api.compiled, api.operation('listPets')).maximum;

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

  let created: { id: Int64; body: Record<string, unknown> } | undefined;

  /** Expects 400 for each body; reports every one that was accepted. */
  async function expectRejected(bodies: readonly GeneratedBody[], label: string): Promise<void> {
    const accepted: string[] = [];
    for (const { body, why } of bodies) {
      const response = await api.call('createPet', { body: { json: body } });
      if (response.status !== 400) accepted.push(`${why} → ${response.status}`);
    }
    api.verify(
      accepted.length === 0,
      `invalid body accepted: createPet answered other than 400 to ${accepted.length} of ${bodies.length} ${label}: ${accepted.join('; ')}`,
    );
  }

  /**
   * Expects 201 for each body, with every field echoed exactly, and the same pet
   * back from getPet; reports every body that was refused, changed or lost.
   */
  async function expectStoredExactly(probes: ReadonlyArray<{ body: Record<string, unknown>; what: string }>) {
    const failures: string[] = [];
    for (const { body, what } of probes) {
      const response = await api.call('createPet', { body: { json: body } });
      if (response.status !== 201) {
        failures.push(`${what} → ${response.status}`);
        continue;
      }
      const problems: string[] = [];
      const echoed = echoMismatches(body, response.body);
      if (echoed.length > 0) problems.push(`wrong echo: ${echoed.join(', ')}`);
      const id = idOf(response.body);
      if (id !== undefined) {
        const read = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
        const stored = echoMismatches({ ...body, id }, read.body);
        if (read.status !== 200) problems.push(`created as ${idText(id)}, but getPet answered ${read.status}`);
        else if (stored.length > 0 && echoed.length === 0)
          problems.push(`getPet ${idText(id)} differs: ${stored.join(', ')}`);
      }
      if (problems.length > 0) failures.push(`${what} → ${problems.join(', ')}`);
    }
    return failures;
  }

  describe.skipIf(readOnly)('createPet', () => {
    it('answers 201 with a Pet echoing what was sent and a new id', async () => {
      const before = new Set(petsOf(await largestPage(api)).map((pet) => idText(pet.id)));
      const body = fullBody();
      const response = await api.call('createPet', { body: { json: body } });
      api.verify(response.status === 201, `createPet with a valid body answered ${response.status}, expected 201`);
      const mismatches = echoMismatches(body, response.body);
      api.verify(
        mismatches.length === 0,
        `wrong echo: the created Pet differs from what was sent: ${mismatches.join('; ')}`,
      );
      const id = idOf(response.body);
      api.verify(id !== undefined, 'createPet answered 201 without an int64 id');
      api.verify(
        !before.has(idText(id)),
        `id reused: createPet answered id ${idText(id)}, which an existing pet already has`,
      );
      created = { id, body };
    });

    it('makes the created pet readable through getPet', async () => {
      api.verify(created !== undefined, 'no pet was created by the previous check');
      const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: created.id }) });
      api.verify(
        response.status === 200,
        `lost write: pet ${idText(created.id)} was created, but getPet answered ${response.status}`,
      );
      const mismatches = echoMismatches({ ...created.body, id: created.id }, response.body);
      api.verify(
        mismatches.length === 0,
        `lost write: getPet ${idText(created.id)} differs from what was created: ${mismatches.join('; ')}`,
      );
    });

    it('shows the created pet in a list filtered by its status', async () => {
      api.verify(created !== undefined, 'no pet was created by the first check');
      const { id } = created;
      const status = String(created.body.status);
      const response = await largestPage(api, { status });
      api.verify(response.status === 200, `listPets?status=${status} answered ${response.status}, expected 200`);
      const pets = petsOf(response);
      if (pets.some((pet) => sameId(pet.id, id))) return;
      if (!pageIsWhole(api, pets, pageLimit)) {
        api.record(
          'unproven',
          'createPet',
          `created pet ${idText(id)} is not on the largest page of status=${status} (${pets.length} pets), which may be cut by the page size, a page cap or the order: visibility in the list cannot be proven`,
        );
        return;
      }
      api.verify(
        false,
        `lost write: created pet ${idText(id)} is missing from listPets?status=${status}, a page of ${pets.length} pets that holds them all`,
      );
    });

    it('answers 400 with an Error for each missing required or wrong-typed field and bad enum value', async () => {
      const bodies = generators.everyRule(fullBody());
      api.verify(bodies.length > 0, 'the document gives no rule to break for createPet bodies');
      await expectRejected(bodies, 'bodies that break one documented rule each');
    });

    it('answers 400 with an Error for malformed JSON', async () => {
      const response = await api.call('createPet', { body: { raw: `{"name": "${namePrefix}malformed",` } });
      api.verify(
        response.status === 400,
        `malformed JSON accepted: createPet answered ${response.status}, expected 400`,
      );
    });

    it('answers 400 with an Error for an empty body', async () => {
      const response = await api.call('createPet', { body: { raw: '' } });
      api.verify(response.status === 400, `empty body accepted: createPet answered ${response.status}, expected 400`);
    });

    it(`answers 400 to ${generatedInvalidCount} generated invalid bodies (fast-check, seed ${seed})`, async () => {
      await expectRejected(sampleWithSeed(generators.invalid, seed, generatedInvalidCount), 'generated invalid bodies');
    });

    it(`answers 201 with an echoing Pet to ${generatedValidCount} generated valid bodies (fast-check, seed ${seed})`, async () => {
      const failures: string[] = [];
      for (const body of sampleWithSeed(generators.valid, seed + 3, generatedValidCount)) {
        const response = await api.call('createPet', { body: { json: body } });
        if (response.status !== 201) {
          failures.push(`${shown(body)} → ${response.status}`);
          continue;
        }
        const mismatches = echoMismatches(body, response.body);
        if (mismatches.length > 0) failures.push(`${shown(body)} → wrong echo: ${mismatches.join(', ')}`);
      }
      api.verify(
        failures.length === 0,
        `valid body rejected: createPet failed ${failures.length} generated valid bodies: ${failures.join('; ')}`,
      );
    });

    // Probes derived from each property's schema (boundaries, text, enum values, decimal literals).
    for (const { name, schema } of generators.properties) {
      if (schema.type === 'integer') {
        const { valid, invalid } = integerBoundaries(schema);
        it(`answers 201 and keeps exactly each boundary value of '${name}' (${valid.map(powerName).join(', ')})`, async () => {
          const failures = await expectStoredExactly(
            valid.map((value) => ({ body: probeBody(name, value), what: `'${name}' ${String(value)}` })),
          );
          api.verify(
            failures.length === 0,
            `boundary value mishandled: createPet failed ${failures.length} of ${valid.length} valid values of '${name}': ${failures.join('; ')}`,
          );
        });
        if (invalid.length > 0) {
          it(`answers 400 with an Error to '${name}' just outside its range (${invalid.map(powerName).join(', ')})`, async () => {
            await expectRejected(
              invalid.map((value) => ({ body: probeBody(name, value), why: `'${name}' ${String(value)}` })),
              `values of '${name}' outside its range`,
            );
          });
        }
        const literals = decimalLiterals(schema);
        it(`answers 400 with an Error to '${name}' written as a decimal or with an exponent (${literals.join(', ')})`, async () => {
          await expectRejected(
            literals.map((literal) => ({ body: probeBody(name, literal), why: `'${name}' written ${literal.text}` })),
            `bodies with '${name}' as a decimal literal`,
          );
        });
      } else if (schema.enum) {
        const values = schema.enum.map(String);
        it(`answers 201 and keeps each value of '${name}' (${values.join(', ')})`, async () => {
          const failures = await expectStoredExactly(
            values.map((value) => ({ body: probeBody(name, value), what: `'${name}' '${value}'` })),
          );
          api.verify(
            failures.length === 0,
            `enum value mishandled: createPet failed ${failures.length} values of '${name}': ${failures.join('; ')}`,
          );
        });
        const misses = enumNearMisses(values);
        it(`answers 400 with an Error to each of ${misses.length} case variants and near misses of '${name}' values`, async () => {
          await expectRejected(
            misses.map(({ value, what }) => ({
              body: probeBody(name, value),
              why: `'${name}' ${JSON.stringify(value)} (${what})`,
            })),
            `near misses of '${name}' values`,
          );
        });
      } else if (schema.type === 'string') {
        const probes = textProbes(namePrefix).filter(({ text, prefixed }) =>
          validate?.(probeBody(name, prefixed ? `${namePrefix}${text}` : text)),
        );
        it(`answers 201 and keeps byte for byte each kind of text in '${name}' (${probes.map((p) => p.what).join(', ')})`, async () => {
          const failures = await expectStoredExactly(
            probes.map(({ what, text, prefixed }) => ({
              body: probeBody(name, prefixed ? `${namePrefix}${text}` : text),
              what,
            })),
          );
          api.verify(
            failures.length === 0,
            `text mishandled: createPet failed ${failures.length} of ${probes.length} kinds of text in '${name}': ${failures.join('; ')}`,
          );
        });
      }
    }
  });
});
