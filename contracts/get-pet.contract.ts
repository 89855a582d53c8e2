import { describe, it } from 'vitest';
import { oneWithSeed } from './support/body-generators.js';
import { type ContractSession, useContract } from './support/contract-session.js';
import { echoMismatches, largestPage, petsOf, unknownIdCandidates } from './support/pet-samples.js';

const api: ContractSession = useContract();
const { readOnly, seed } = api.settings;
const getPet = api.operation('getPet');

/** An id that exists: the first listed pet, or one created for the purpose (not in read-only mode). */
async function existingPet(): Promise<{ id: number; fields: Record<string, unknown> } | undefined> {
  const [listed] = petsOf(await largestPage(api));
  if (listed) return { id: listed.id, fields: listed };
  if (readOnly) return undefined;
  const response = await api.call('createPet', { body: { json: oneWithSeed(api.bodies('createPet').valid, seed) } });
  const id = (response.json as { id?: unknown } | undefined)?.id;
  return response.status === 201 && typeof id === 'number'
    ? { id, fields: response.json as Record<string, unknown> }
    : undefined;
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
    api.verify(response.status === 200, `getPet ${pet.id} (a listed id) answered ${response.status}, expected 200`);
    const mismatches = echoMismatches(pet.fields, response.json);
    api.verify(
      mismatches.length === 0,
      `wrong pet: getPet ${pet.id} differs from the listed pet: ${mismatches.join('; ')}`,
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
      const body = response.json as { id?: unknown } | undefined;
      api.verify(
        response.status === 200,
        `getPet ${id} (an id above every listed id) answered ${response.status}, expected 404`,
      );
      api.verify(
        body?.id === id,
        `wrong pet: getPet ${id} answered 200 with a pet whose id is ${JSON.stringify(body?.id)}`,
      );
      answers.push(String(id));
    }
    api.verify(
      false,
      `200 for unknown ids: getPet answered 200 for every id tried far above the listed ones (${answers.join(', ')})`,
    );
  });
});
