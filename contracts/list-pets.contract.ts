import { describe, it } from 'vitest';
import { idText } from '../src/contract/exact-ids.js';
import { type ContractSession, forEachDeployment } from './support/contract-session.js';
import { limitFacts, parameterSchema, statusValues } from './support/document-facts.js';
import { duplicateIds, largestPage, pageIsWhole, type PetLike, petsOf, sameId } from './support/pet-samples.js';
import { integerBoundaries } from './support/schema-probes.js';

/** "1 pet", "20 pets". */
function pets(count: number): string {
  return `${count} pet${count === 1 ? '' : 's'}`;
}

forEachDeployment((api: ContractSession) => {
  const listPets = api.operation('listPets');
  const limits = limitFacts(api.compiled, listPets);
  const statuses = statusValues(api.compiled, listPets);
  const middleLimit = Math.floor((limits.minimum + limits.maximum) / 2);
  const limitValues = [
    ...new Set([...integerBoundaries(parameterSchema(api.compiled, listPets, 'limit')).valid.map(Number), middleLimit]),
  ].sort((a, b) => a - b);

  function verifyUniqueIds(what: string, found: readonly PetLike[]): void {
    const duplicates = duplicateIds(found);
    api.verify(duplicates.length === 0, `duplicate ids: ${what} listed ids ${duplicates.join(', ')} more than once`);
  }

  describe('listPets', () => {
    it(`answers 200 with valid Pets of unique ids, at most ${pets(limits.default)} on the default page`, async () => {
      const response = await api.call('listPets', { query: {} });
      api.verify(response.status === 200, `listPets without parameters answered ${response.status}, expected 200`);
      api.verify(Array.isArray(response.body), 'listPets did not answer an array');
      const found = petsOf(response);
      verifyUniqueIds('the default page', found);
      api.verify(
        found.length <= limits.default,
        `default page too large: listPets without limit returned ${pets(found.length)}, more than the default ${limits.default}`,
      );
      const largest = petsOf(await largestPage(api));
      if (largest.length <= limits.default) {
        api.record(
          'unproven',
          'listPets',
          `default page size: the largest page holds only ${pets(largest.length)}, so a default above ${limits.default} cannot show`,
        );
      }
    });

    for (const limit of limitValues) {
      it(`returns at most ${pets(limit)} for limit=${limit}`, async () => {
        const response = await api.call('listPets', { query: { limit: String(limit) } });
        api.verify(response.status === 200, `listPets?limit=${limit} answered ${response.status}, expected 200`);
        const found = petsOf(response);
        verifyUniqueIds(`limit=${limit}`, found);
        api.verify(found.length <= limit, `limit ignored: listPets?limit=${limit} returned ${pets(found.length)}`);
        const largest = limit === limits.maximum ? found : petsOf(await largestPage(api));
        if (largest.length <= limit) {
          api.record(
            'unproven',
            'listPets',
            `limit=${limit}: the largest page holds only ${pets(largest.length)}, so ignoring the limit cannot show`,
          );
        }
      });
    }

    for (const status of statuses) {
      it(`returns only pets with status '${status}' for status=${status}`, async () => {
        const response = await largestPage(api, { status });
        api.verify(response.status === 200, `listPets?status=${status} answered ${response.status}, expected 200`);
        const found = petsOf(response);
        verifyUniqueIds(`status=${status}`, found);
        const others = found.filter((pet) => pet.status !== status);
        api.verify(
          others.length === 0,
          `status filter ignored: listPets?status=${status} returned ${others.length} pet(s) with another status (e.g. id ${others[0] ? idText(others[0].id) : ''} with status ${JSON.stringify(others[0]?.status)})`,
        );
        if (found.length === 0) {
          const holder = petsOf(await largestPage(api)).find((pet) => pet.status === status);
          api.verify(
            holder === undefined,
            `status filter drops pets: listPets?status=${status} returned none, but pet ${holder ? idText(holder.id) : ''} has status '${status}'`,
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

    it('does not leave out of the unfiltered list a pet that a filtered list shows', async () => {
      const filtered = new Map<string, PetLike>();
      for (const status of statuses) {
        for (const pet of petsOf(await largestPage(api, { status }))) filtered.set(idText(pet.id), pet);
      }
      // Listed last, so that a pet created meanwhile by someone else shows here rather than being missed.
      const unfiltered = petsOf(await largestPage(api));
      const listed = new Set(unfiltered.map((pet) => idText(pet.id)));
      const missing = [...filtered.values()].filter((pet) => !listed.has(idText(pet.id)));
      if (missing.length === 0) return;
      if (!pageIsWhole(api, unfiltered, limits.maximum)) {
        api.record(
          'unproven',
          'listPets',
          `the unfiltered list (${pets(unfiltered.length)}) lacks ${pets(missing.length)} that filtered lists show, but it may be cut by the page size, a page cap or the order: hidden pets cannot be proven`,
        );
        return;
      }
      // Each one still exists? (It may have been removed meanwhile by someone else.)
      const hidden: PetLike[] = [];
      for (const pet of missing.slice(0, 5)) {
        const read = await api.call('getPet', { path: api.pathOf('getPet', { petId: pet.id }) });
        if (read.status === 200 && sameId((read.body as { id?: unknown } | undefined)?.id, pet.id)) hidden.push(pet);
      }
      const byStatus = [...new Set(hidden.map((pet) => String(pet.status)))];
      api.verify(
        hidden.length === 0,
        `unfiltered list hides pets: listPets?limit=${limits.maximum} holds ${pets(unfiltered.length)} (all there are), yet leaves out ${pets(missing.length)} that status-filtered lists show (status ${byStatus.join(', ')}; e.g. id ${hidden[0] ? idText(hidden[0].id) : ''})`,
      );
    });
  });
});
