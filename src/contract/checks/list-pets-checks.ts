import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { idText } from '../exact-ids.js';
import { limitFacts, parameterSchema, statusValues } from '../support/document-facts.js';
import { largestPage, pageIsWhole, type PetLike, petsOf, sameId } from '../support/pet-samples.js';
import { integerBoundaries } from '../support/schema-probes.js';

/** "1 pet", "20 pets". */
function pets(count: number): string {
  return `${count} pet${count === 1 ? '' : 's'}`;
}

/**
 * listPets: the oracle judges every page (valid Pets, unique ids, at most
 * `limit`, only the status asked for); these checks send the pages that can
 * show a fault, before any check creates a pet (so an empty filtered list
 * is seen where the data has one), and prove what a single page cannot: a
 * filter that drops pets, an unfiltered list that hides some.
 */
export function listPetsChecks(api: ContractSession, checks: CheckList): void {
  const listPets = api.operation('listPets');
  const limits = limitFacts(api.compiled, listPets);
  const statuses = statusValues(api.compiled, listPets);
  const middleLimit = Math.floor((limits.minimum + limits.maximum) / 2);
  const limitValues = [
    ...new Set([...integerBoundaries(parameterSchema(api.compiled, listPets, 'limit')).valid.map(Number), middleLimit]),
  ].sort((a, b) => a - b);
  const add = (name: string, run: () => Promise<void>) => checks.add('listPets', name, run);

  add(`answers 200 with valid Pets of unique ids, at most ${pets(limits.default)} on the default page`, async () => {
    const response = await api.call('listPets', { query: {} });
    api.expectStatus(response, 200, 'the default page');
    const largest = petsOf(await largestPage(api));
    if (largest.length <= limits.default) {
      api.unproven(
        `default page size: the largest page holds only ${pets(largest.length)}, so a default above ${limits.default} cannot show`,
      );
    }
  });

  for (const limit of limitValues) {
    add(`returns at most ${pets(limit)} for limit=${limit}`, async () => {
      const response = await api.call('listPets', { query: { limit: String(limit) } });
      api.expectStatus(response, 200, `limit=${limit}`);
      const largest = limit === limits.maximum ? petsOf(response) : petsOf(await largestPage(api));
      if (largest.length <= limit) {
        api.unproven(
          `limit=${limit}: the largest page holds only ${pets(largest.length)}, so ignoring the limit cannot show`,
        );
      }
    });
  }

  for (const status of statuses) {
    add(`returns only pets with status '${status}' for status=${status}, at most the limit asked`, async () => {
      const response = await largestPage(api, { status });
      api.expectStatus(response, 200, `status=${status}`);
      const found = petsOf(response);
      // A small page and a default page of the filtered list too: a limit ignored only when filtering shows here.
      await api.call('listPets', { query: { status, limit: String(limits.minimum) } });
      await api.call('listPets', { query: { status } });
      if (found.length === 0) {
        const holder = petsOf(await largestPage(api)).find((pet) => pet.status === status);
        api.verify(
          'filter-complete',
          holder === undefined,
          `status filter drops pets: listPets?status=${status} returned none, but pet ${holder ? idText(holder.id) : ''} has status '${status}'`,
        );
        api.unproven(`status=${status}: no pet with this status was found, so the filter was checked on an empty list`);
      } else if (!petsOf(await largestPage(api)).some((pet) => pet.status !== status)) {
        api.unproven(`status=${status}: every listed pet has this status, so an ignored filter cannot show`);
      }
    });
  }

  add('does not leave out of the unfiltered list a pet that a filtered list shows', async () => {
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
      api.unproven(
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
      'filter-complete',
      hidden.length === 0,
      `unfiltered list hides pets: listPets?limit=${limits.maximum} holds ${pets(unfiltered.length)} (all there are), yet leaves out ${pets(missing.length)} that status-filtered lists show (status ${byStatus.join(', ')}; e.g. id ${hidden[0] ? idText(hidden[0].id) : ''})`,
    );
  });
}
