import { describe, it } from 'vitest';
import { type ContractSession, useContract } from './support/contract-session.js';
import { limitFacts, statusValues } from './support/document-facts.js';
import { duplicateIds, largestPage, petsOf } from './support/pet-samples.js';

const api: ContractSession = useContract();
const listPets = api.operation('listPets');
const limits = limitFacts(api.compiled, listPets);
const statuses = statusValues(api.compiled, listPets);
const middleLimit = Math.floor((limits.minimum + limits.maximum) / 2);

function verifyUniqueIds(what: string, pets: ReturnType<typeof petsOf>): void {
  const duplicates = duplicateIds(pets);
  api.verify(duplicates.length === 0, `duplicate ids: ${what} listed ids ${duplicates.join(', ')} more than once`);
}

describe('listPets', () => {
  it(`answers 200 with valid, unique Pets and at most ${limits.default} on the default page`, async () => {
    const response = await api.call('listPets', { query: {} });
    api.verify(response.status === 200, `listPets without parameters answered ${response.status}, expected 200`);
    api.verify(Array.isArray(response.json), 'listPets did not answer an array');
    const pets = petsOf(response);
    verifyUniqueIds('the default page', pets);
    api.verify(
      pets.length <= limits.default,
      `default page too large: listPets without limit returned ${pets.length} pets, more than the default ${limits.default}`,
    );
    if (pets.length <= limits.default) {
      const largest = petsOf(await largestPage(api));
      if (largest.length <= limits.default) {
        api.record(
          'unproven',
          'listPets',
          `default page size: only ${largest.length} pets exist, so a default above ${limits.default} cannot show`,
        );
      }
    }
  });

  for (const limit of [limits.minimum, middleLimit, limits.maximum]) {
    it(`returns at most ${limit} pets for limit=${limit}`, async () => {
      const response = await api.call('listPets', { query: { limit: String(limit) } });
      api.verify(response.status === 200, `listPets?limit=${limit} answered ${response.status}, expected 200`);
      const pets = petsOf(response);
      verifyUniqueIds(`limit=${limit}`, pets);
      api.verify(pets.length <= limit, `limit ignored: listPets?limit=${limit} returned ${pets.length} pets`);
      if (pets.length <= limit) {
        const largest = limit === limits.maximum ? pets : petsOf(await largestPage(api));
        if (largest.length <= limit) {
          api.record(
            'unproven',
            'listPets',
            `limit=${limit}: only ${largest.length} pets exist, so ignoring the limit cannot show`,
          );
        }
      }
    });
  }

  for (const status of statuses) {
    it(`returns only pets with status '${status}' for status=${status}`, async () => {
      const response = await largestPage(api, { status });
      api.verify(response.status === 200, `listPets?status=${status} answered ${response.status}, expected 200`);
      const pets = petsOf(response);
      verifyUniqueIds(`status=${status}`, pets);
      const others = pets.filter((pet) => pet.status !== status);
      api.verify(
        others.length === 0,
        `status filter ignored: listPets?status=${status} returned ${others.length} pet(s) with another status (e.g. id ${others[0]?.id} with status ${JSON.stringify(others[0]?.status)})`,
      );
      if (pets.length === 0) {
        const all = petsOf(await largestPage(api));
        const holder = all.find((pet) => pet.status === status);
        api.verify(
          holder === undefined,
          `status filter drops pets: listPets?status=${status} returned none, but pet ${holder?.id} has status '${status}'`,
        );
        api.record(
          'unproven',
          'listPets',
          `status=${status}: no pet with this status was found, so the filter was checked on an empty list`,
        );
      } else if (!petsOf(await largestPage(api)).some((pet) => pet.status !== status)) {
        api.record(
          'unproven',
          'listPets',
          `status=${status}: every listed pet has this status, so an ignored filter cannot show`,
        );
      }
    });
  }
});
