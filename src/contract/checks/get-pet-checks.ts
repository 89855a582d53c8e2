import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { type Int64, idOf, idText, unknownIdCandidates } from '../exact-ids.js';
import { oneWithSeed } from '../support/body-generators.js';
import { parameterSchema } from '../support/document-facts.js';
import { echoMismatches, largestPage, petsOf } from '../support/pet-samples.js';
import { integerBoundaries, powerName } from '../support/schema-probes.js';

/**
 * getPet: the oracle judges every answer (the pet asked for, a documented
 * status, the deprecation announced); these checks ask for a listed pet, for
 * ids no pet has, for each int64 boundary, and for ids that are not int64.
 */
export function getPetChecks(api: ContractSession, checks: CheckList): void {
  const { readOnly, seed } = api.settings;
  const boundaries = integerBoundaries(parameterSchema(api.compiled, api.operation('getPet'), 'petId'));
  const add = (name: string, run: () => Promise<void>) => checks.add('getPet', name, run);

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

  add('answers 200 with the Pet carrying the requested id, as it is listed', async () => {
    const pet = await existingPet();
    if (!pet) {
      api.unproven(
        'no pet is listed and read-only mode forbids creating one: 200 for an existing id cannot be checked',
      );
      return;
    }
    const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: pet.id }) });
    api.expectStatus(response, 200, `getPet ${idText(pet.id)} (a listed id)`);
    const mismatches = echoMismatches(pet.fields, response.body);
    // A status may change between the list and the read (transitions are not shown); other fields may not.
    const changed = mismatches.filter((mismatch) => !mismatch.startsWith("'status'"));
    api.verify(
      'requested-pet',
      changed.length === 0,
      `wrong pet: getPet ${idText(pet.id)} differs from the listed pet: ${changed.join('; ')}`,
    );
  });

  add('answers 404 with an Error for an id that does not exist', async () => {
    const known = [...petsOf(await largestPage(api)).map((pet) => pet.id), ...api.createdIds];
    const answers: string[] = [];
    for (const id of unknownIdCandidates(known)) {
      const response = await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
      if (response.status === 404) return;
      api.expectStatus(response, 200, `getPet ${idText(id)} (an id far from every listed id)`);
      answers.push(idText(id));
    }
    api.verify(
      'unknown-pet-404',
      false,
      `200 for unknown ids: getPet answered 200 for every id tried far from the listed ones (${answers.join(', ')})`,
    );
  });

  add(
    `answers 404, or 200 with that very pet, to each boundary value of 'petId' (${boundaries.valid.map(powerName).join(', ')})`,
    async () => {
      // The oracle holds each answer to the documented statuses and a 200 to the pet asked for.
      for (const id of boundaries.valid) await api.call('getPet', { path: api.pathOf('getPet', { petId: id }) });
    },
  );

  add('answers a petId that is not an int64 integer with an Error, never another pet', async () => {
    const id = (await existingPet())?.id ?? 1;
    // getPet documents no 400: any clean refusal is observed; a 200 must be the pet the text names.
    const invalid = [
      ...boundaries.invalid.map((value) => String(value)),
      `${idText(id)}.0`,
      `${idText(id)}e0`,
      'not-an-id',
    ];
    for (const text of invalid) await api.call('getPet', { path: api.pathOf('getPet', { petId: text }) });
  });
}
