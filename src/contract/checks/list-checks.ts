import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { writesByMethod } from '../../core/model/operation-kind.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession } from '../contract-session.js';
import { idText } from '../exact-ids.js';
import { filterValues, parameterSchema } from '../support/document-facts.js';
import {
  countOf,
  itemsOf,
  largestPage,
  largestSize,
  type ListedItem,
  pageIsWhole,
  schemaName,
} from '../support/item-samples.js';
import { accessOf, holds, itemPath } from '../support/read-back.js';
import { integerBoundaries } from '../support/schema-probes.js';

/** A list's filters that name their values (an enum), with those values. */
export function enumFilters(api: ContractSession, list: OperationSemantics): Array<{ name: string; values: string[] }> {
  return list.filters
    .map((name) => ({ name, values: filterValues(api.compiled, list.operation, name) }))
    .filter(({ values }) => values.length > 0);
}

/**
 * A list operation: the oracle judges every page (valid items, unique ids,
 * at most the page size asked, only the filter value asked for); these
 * checks send the pages that can show a fault, before any check creates an
 * item (so an empty filtered list is seen where the data has one), and prove
 * what a single page cannot: a filter that drops items, an unfiltered list
 * that hides some.
 */
export function listChecks(api: ContractSession, checks: CheckList, list: OperationSemantics): void {
  const { operation, page } = list;
  const resource = list.resource as Resource;
  const count = (n: number) => countOf(resource, n);
  const filters = enumFilters(api, list);
  const largest = largestSize(list);
  const add = (name: string, run: () => Promise<void>) =>
    checks.add(operation.operationId, name, run, { writes: writesByMethod(operation.method) });
  const all = () => largestPage(api, list);

  const fallback = page?.default;
  add(
    `answers 200 with valid ${resource.name} (each a ${schemaName(resource)}) of unique ids${fallback === undefined ? '' : `, at most ${count(fallback)} on the default page`}`,
    async () => {
      const response = await api.call(operation, { query: {} });
      api.expectStatus(response, 200, 'the default page');
      const listed = itemsOf(resource, await all());
      if (fallback !== undefined && listed.length <= fallback) {
        api.unproven(
          `default page size: the largest page holds only ${count(listed.length)}, so a default above ${fallback} cannot show`,
        );
      }
    },
  );

  if (page) {
    const boundaries = integerBoundaries(parameterSchema(api.compiled, operation, page.name)).valid.map(Number);
    const ends = [page.minimum, page.maximum].filter((end) => end !== undefined);
    const middle = ends.length === 2 ? [Math.floor(((ends[0] ?? 0) + (ends[1] ?? 0)) / 2)] : [];
    const sizes = [...new Set([...boundaries, ...middle])]
      .filter((size) => size >= 1 && Number.isSafeInteger(size))
      .sort((a, b) => a - b);
    for (const size of sizes) {
      add(`returns at most ${count(size)} for ${page.name}=${size}`, async () => {
        const response = await api.call(operation, { query: { [page.name]: String(size) } });
        api.expectStatus(response, 200, `${page.name}=${size}`);
        const listed = size === largest ? itemsOf(resource, response) : itemsOf(resource, await all());
        if (listed.length <= size) {
          api.unproven(
            `${page.name}=${size}: the largest page holds only ${count(listed.length)}, so ignoring the ${page.name} cannot show`,
          );
        }
      });
    }
  }

  for (const { name, values } of filters) {
    for (const value of values) {
      add(
        `returns only ${resource.name} with ${name} '${value}' for ${name}=${value}${page ? `, at most the ${page.name} asked` : ''}`,
        async () => {
          const response = await largestPage(api, list, { [name]: value });
          api.expectStatus(response, 200, `${name}=${value}`);
          const found = itemsOf(resource, response);
          if (page) {
            // A small page and a default page of the filtered list too: a page size ignored only when filtering shows here.
            const smallest = page.minimum ?? 1;
            await api.call(operation, { query: { [name]: value, [page.name]: String(smallest) } });
            await api.call(operation, { query: { [name]: value } });
          }
          if (found.length === 0) {
            const holder = itemsOf(resource, await all()).find((item) => String(item.fields[name]) === value);
            api.verify(
              'filter-complete',
              holder === undefined,
              `${name} filter drops ${resource.name}: ${operation.operationId}?${name}=${value} returned none, but ${resource.itemName} ${holder ? idText(holder.id) : ''} has ${name} '${value}'`,
            );
            api.unproven(
              `${name}=${value}: no ${resource.itemName} with this ${name} was found, so the filter was checked on an empty list`,
            );
          } else if (!itemsOf(resource, await all()).some((item) => String(item.fields[name]) !== value)) {
            api.unproven(
              `${name}=${value}: every listed ${resource.itemName} has this ${name}, so an ignored filter cannot show`,
            );
          }
        },
      );
    }
  }

  if (filters.length === 0) return;
  add(`does not leave out of the unfiltered list a ${resource.itemName} that a filtered list shows`, async () => {
    const filtered = new Map<string, { item: ListedItem; query: Record<string, string> }>();
    for (const { name, values } of filters) {
      for (const value of values) {
        const query = { [name]: value };
        for (const item of itemsOf(resource, await largestPage(api, list, query)))
          filtered.set(idText(item.id), { item, query });
      }
    }
    // Listed last, so that an item created meanwhile by someone else shows here rather than being missed.
    const unfiltered = itemsOf(resource, await all());
    const listed = new Set(unfiltered.map((item) => idText(item.id)));
    const missing = [...filtered.values()].filter(({ item }) => !listed.has(idText(item.id)));
    if (missing.length === 0) return;
    if (!pageIsWhole(api, resource, unfiltered, largest)) {
      api.unproven(
        `the unfiltered list (${count(unfiltered.length)}) lacks ${count(missing.length)} that filtered lists show, but it may be cut by the page size, a page cap or the order: hidden ${resource.name} cannot be proven`,
      );
      return;
    }
    // Each one still exists? (It may have been removed meanwhile by someone else.) Read it, or list its page again.
    const { read } = accessOf(api, resource);
    const hidden: Array<{ item: ListedItem; query: Record<string, string> }> = [];
    for (const entry of missing.slice(0, 5)) {
      const again = read
        ? await api.call(read.operation, { path: itemPath(api, read, entry.item.id) })
        : await largestPage(api, list, entry.query);
      const shown = read
        ? again.status === 200 &&
          idText(entry.item.id) === String((again.body as Record<string, unknown>)?.[resource.idField])
        : again.status === 200 && holds(resource, again, entry.item.id);
      if (shown) hidden.push(entry);
    }
    const by = [...new Set(hidden.flatMap(({ query }) => Object.entries(query).map(([n, v]) => `${n} ${v}`)))];
    api.verify(
      'filter-complete',
      hidden.length === 0,
      `unfiltered list hides ${resource.name}: ${operation.operationId}${page && largest !== undefined ? `?${page.name}=${largest}` : ''} holds ${count(unfiltered.length)} (all there are), yet leaves out ${count(missing.length)} that ${filters.map((f) => f.name).join('- or ')}-filtered lists show (${by.join(', ')}; e.g. ${resource.idField} ${hidden[0] ? idText(hidden[0].item.id) : ''})`,
    );
  });
}
