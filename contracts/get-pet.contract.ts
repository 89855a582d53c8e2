import { describe, it } from 'vitest';
import { type Int64, idOf, idText, unknownIdCandidates } from '../src/contract/exact-ids.js';
import { oneWithSeed } from './support/body-generators.js';
import { type ContractSession, forEachDeployment } from './support/contract-session.js';
import { parameterSchema } from './support/document-facts.js';
import { echoMismatches, largestPage, petsOf, sameId, shown } from './support/pet-samples.js';
import { integerBoundaries, powerName } from './support/schema-probes.js';

forEachDeployment((api: ContractSession) => {
  const { readOnly, seed } = api.settings;
  const getPet = api.operation('getPet');
  const petIdSchema = parameterSchema(api.compiled, getPet, 'petId');
  const boundaries = integerBoundaries(petIdSchema);

  let existing: { id: Int64; fields: Record<string, unknown> } | null | undefined;
  /** An id that exists: the first listed pet, or one created for the purpose (not in read-only mode). */
  async function existingPet(): Promise<{ id: Int64; fields: Record<string, unknown> } | undefined> {
    if (existing !== undefined) return existing ?? undefined;
    const [listed] = petsOf(await largestPage(api));
    existing = null;
    if (listed) existing = { id: listed.id, fields: listed };
    else if (!readOnly) {
      const response = await api.call('createPet', {
        body: { json: oneWithSeed(api.bodies('createPet').valid, seed) },
      });
      const id = idOf(response.body);
      if (response.status === 201 && id !== undefined)
        existing = { id, fields: response.body as Record<string, unknown> };
    }
    return existing ?? undefined;
  }

  describe('getPet', () => {
    it('answers 200 with the Pet carrying the requested id', async () => {
      const pet = await existingPet();
      if (!pet) {
        api.record(
          'unproven',
          'getPet',
          'no pet is listed and read-only mode forbids creating one: 200 for an existing id cannot be checked',
        );
        return;
      }
      const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: pet.id }) });
      api.verify(
        response.status === 200,
        `getPet ${idText(pet.id)} (a listed id) answered ${response.status}, expected 200`,
      );
      const mismatches = echoMismatches(pet.fields, response.body);
      api.verify(
        mismatches.length === 0,
        `wrong pet: getPet ${idText(pet.id)} differs from the listed pet: ${mismatches.join('; ')}`,
      );

      if (getPet.deprecated) {
        const deprecation = response.headers.deprecation;
        const sunset = response.headers.sunset;
        if (deprecation === undefined && sunset === undefined) {
          api.record(
            'warning',
            'getPet',
            'getPet is deprecated in openapi.yaml, but the response carries neither a Deprecation nor a Sunset header',
          );
        } else {
          api.record(
            'observed',
            'getPet',
            `deprecation headers: Deprecation ${deprecation ?? '(none)'}, Sunset ${sunset ?? '(none)'}, Link ${response.headers.link ?? '(none)'}`,
          );
        }
      }
    });

    it('answers 404 with an Error for an id that does not exist', async () => {
      const known = [...petsOf(await largestPage(api)).map((pet) => pet.id), ...api.createdIds];
      const answers: string[] = [];
      for (const id of unknownIdCandidates(known)) {
        const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
        if (response.status === 404) return;
        const body = response.body as { id?: unknown } | undefined;
        api.verify(
          response.status === 200,
          `getPet ${idText(id)} (an id far from every listed id) answered ${response.status}, expected 404`,
        );
        api.verify(
          sameId(body?.id, id),
          `wrong pet: getPet ${idText(id)} answered 200 with a pet whose id is ${shown(body?.id)}`,
        );
        answers.push(idText(id));
      }
      api.verify(
        false,
        `200 for unknown ids: getPet answered 200 for every id tried far from the listed ones (${answers.join(', ')})`,
      );
    });

    it(`answers 404, or 200 with that very pet, to each boundary value of 'petId' (${boundaries.valid.map(powerName).join(', ')})`, async () => {
      const failures: string[] = [];
      for (const id of boundaries.valid) {
        const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
        if (response.status === 404) continue;
        const body = response.body as { id?: unknown } | undefined;
        if (response.status !== 200) failures.push(`${idText(id)} → ${response.status}`);
        else if (!sameId(body?.id, id))
          failures.push(`${idText(id)} → 200 with the pet whose id is ${shown(body?.id)}`);
      }
      api.verify(
        failures.length === 0,
        `petId boundary mishandled: getPet answered neither 404 nor that pet for ${failures.length} valid int64 ids: ${failures.join('; ')}`,
      );
    });

    it('answers 4xx with an Error, never 200 or 5xx, to a petId that is not an int64 integer', async () => {
      const id = (await existingPet())?.id ?? 1;
      const invalid = [
        ...boundaries.invalid.map((value) => ({ text: String(value), what: `${powerName(value)}, outside int64` })),
        { text: `${idText(id)}.0`, what: `existing id ${idText(id)} written as a decimal` },
        { text: `${idText(id)}e0`, what: `existing id ${idText(id)} written with an exponent` },
      ];
      const failures: string[] = [];
      for (const { text, what } of invalid) {
        // Which 4xx is not documented (getPet lists 200, 401, 404): any is fine, with an Error body.
        const response = await api.call(
          'getPet',
          { path: api.pathOf('getPet', { petId: text }) },
          { tolerate: ['documented-status'] },
        );
        if (response.status < 400 || response.status >= 500) failures.push(`${text} (${what}) → ${response.status}`);
      }
      api.verify(
        failures.length === 0,
        `invalid petId accepted: getPet answered other than 4xx to ${failures.length} petIds that are not int64 integers: ${failures.join('; ')}`,
      );
    });
  });
});
