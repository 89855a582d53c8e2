import { stringifyJson } from '../../core/json/exact-json.js';
import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import type { KnownItem } from '../../core/oracle/reference-model.js';
import { canonicallyEquivalent } from '../../core/oracle/canonically-equivalent.js';
import { fails } from '../../core/oracle/finding.js';
import type { ContractSession } from '../contract-session.js';
import { idText, type ItemId } from '../exact-ids.js';
import { filterValues } from './document-facts.js';
import { countOf, itemsOf, largestPage, largestSize, pageIsWhole, sameId } from './item-samples.js';

/**
 * How the suite reaches a resource's items, by kind: its first list, its
 * first create, and its read while the read is in the contract (not past its
 * removal date). Without a read, items are read back through the list.
 */
export interface ResourceAccess {
  resource: Resource;
  list: OperationSemantics | undefined;
  read: OperationSemantics | undefined;
  create: OperationSemantics | undefined;
}

export function accessOf(api: ContractSession, resource: Resource): ResourceAccess {
  const semantics = (kind: 'list' | 'read' | 'create') => {
    const operation = resource.operations[kind];
    return operation ? api.api.of(operation) : undefined;
  };
  const read = semantics('read');
  return {
    resource,
    list: semantics('list'),
    read: read && !api.removed(read.operation) ? read : undefined,
    create: semantics('create'),
  };
}

/** The path of the item an operation on an item acts on. */
export function itemPath(api: ContractSession, semantics: OperationSemantics, id: ItemId | string): string {
  if (semantics.idParameter === undefined) throw new Error(`${semantics.operation.operationId} acts on no item`);
  return api.pathOf(semantics.operation, { [semantics.idParameter]: id });
}

/** Whether an item read shows the data values last written (its states may have moved: transitions are not shown). */
function showsWritten(resource: Resource, known: KnownItem | undefined, read: unknown): boolean {
  if (!known?.written || typeof read !== 'object' || read === null) return true;
  const item = read as Record<string, unknown>;
  // A text in another normal form is the same text (a warning the model gives), not an older value to wait out.
  return Object.entries(known.written).every(
    ([field, value]) =>
      resource.states.includes(field) ||
      (Object.hasOwn(item, field) &&
        item[field] !== undefined &&
        (stringifyJson(item[field]) === stringifyJson(value) || canonicallyEquivalent(item[field], value))),
  );
}

const pastTense = { create: 'created', replace: 'replaced', update: 'updated', delete: 'deleted' } as const;

/** A list query and whether its answer held every item it matches. */
interface PageSeen {
  query: Record<string, string>;
  whole: boolean;
  ids: Set<string>;
}

/**
 * The pages of a list where an item must show: the unfiltered one, each
 * value of a filter on a state (the item holds one of them, whichever the
 * service moved it to), and the value it holds of a filter on data.
 */
function pagesFor(api: ContractSession, list: OperationSemantics, known: KnownItem | undefined) {
  const { resource } = known ?? { resource: list.resource as Resource };
  const values = known?.seen ?? known?.written ?? {};
  const queries: Array<Record<string, string>> = [{}];
  for (const filter of list.filters) {
    const allowed = filterValues(api.compiled, list.operation, filter);
    if (resource.states.includes(filter)) for (const value of allowed) queries.push({ [filter]: value });
    else if (values[filter] !== undefined) queries.push({ [filter]: String(values[filter]) });
  }
  return queries;
}

/** Whether pages that held every match show that an item is in none of them. */
function absenceProven(list: OperationSemantics, known: KnownItem | undefined, pages: readonly PageSeen[]): boolean {
  const whole = (query: Record<string, string>) =>
    pages.some((page) => page.whole && stringifyJson(page.query) === stringifyJson(query));
  if (whole({})) return true;
  const resource = list.resource;
  const values = { ...(known?.seen ?? {}), ...(known?.written ?? {}) };
  return list.filters.some((filter) => {
    // An item without a value of the field is on none of its pages: they prove nothing of it.
    if (values[filter] === undefined) return false;
    const onPages = pages.filter((page) => Object.keys(page.query).join() === filter);
    // A state may have moved to any of its values (transitions are not shown): every value's page must be whole.
    if (resource?.states.includes(filter)) return onPages.length > 0 && onPages.every((page) => page.whole);
    return whole({ [filter]: String(values[filter]) });
  });
}

/** Lists each page once; returns what each held. */
async function listPages(
  api: ContractSession,
  list: OperationSemantics,
  queries: ReadonlyArray<Record<string, string>>,
): Promise<PageSeen[]> {
  const resource = list.resource as Resource;
  const pages: PageSeen[] = [];
  const seen = new Set<string>();
  for (const query of queries) {
    const key = stringifyJson(query);
    if (seen.has(key)) continue;
    seen.add(key);
    const response = await largestPage(api, list, query);
    if (response.status !== 200) continue;
    const items = itemsOf(resource, response);
    pages.push({
      query,
      whole: pageIsWhole(api, resource, items, largestSize(list)),
      ids: new Set(items.map((item) => idText(item.id))),
    });
  }
  return pages;
}

/** `listPets?status=sold`: a page as messages name it. */
function pageName(list: OperationSemantics, query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return `${list.operation.operationId}${text ? `?${text}` : ''}`;
}

/**
 * Reads items the run wrote back, asking again with growing pauses until each
 * shows with the data values written or the settle window has passed; the
 * reference model judges what the last reads show (an item still missing is
 * a lost write, one with other values a wrong read-back). Through the
 * resource's read operation; without one, through the pages of its list, and
 * an item missing from pages that held every match once the window has
 * passed is a lost write (`write-kept`).
 */
export async function readBack(api: ContractSession, access: ResourceAccess, ids: readonly ItemId[]): Promise<void> {
  const { resource, read, list } = access;
  if (ids.length === 0) return;
  let missing = [...ids];
  if (read) {
    await api.eventually(`${countOf(resource, ids.length)} read back`, async () => {
      const still: ItemId[] = [];
      for (const id of missing) {
        const response = await api.call(read.operation, { path: itemPath(api, read, id) });
        const known = api.model.item(resource, id);
        // Asked again only while the answer may still settle: a failing finding is already the verdict.
        if (response.findings.some((found) => fails(found, api.settings.strict))) continue;
        if (response.status === 404 || (response.status === 200 && !showsWritten(resource, known, response.body)))
          still.push(id);
      }
      missing = still;
      return missing.length === 0 ? true : undefined;
    });
    return;
  }
  if (!list) {
    api.unproven(`${resource.name} have neither a read nor a list operation: what was written cannot be read back`);
    return;
  }
  let pages: PageSeen[] = [];
  // Asked again until each shows, or until no page could prove one missing (each cut by its size, a page cap or
  // the order): waiting out the settle window then would prove nothing.
  await api.eventually(`${countOf(resource, ids.length)} listed`, async () => {
    const queries = missing.flatMap((id) => pagesFor(api, list, api.model.item(resource, id)));
    pages = await listPages(api, list, queries);
    missing = missing.filter((id) => !pages.some((page) => page.ids.has(idText(id))));
    if (missing.length === 0) return true;
    return missing.some((id) => absenceProven(list, api.model.item(resource, id), pages)) ? undefined : false;
  });
  for (const id of missing) {
    const known = api.model.item(resource, id);
    const age = known?.writtenAt === undefined ? undefined : Math.round(performance.now() - known.writtenAt);
    const looked = pages.map((page) => pageName(list, page.query)).join(', ');
    if (!absenceProven(list, known, pages)) {
      api.unproven(
        `${resource.itemName} ${idText(id)} is on none of the largest pages (${looked}), which may be cut by the page size, a page cap or the order: that it was kept cannot be proven`,
      );
      continue;
    }
    api.verify(
      'write-kept',
      false,
      `lost write: ${resource.itemName} ${idText(id)} is missing from ${looked}, pages that hold every match, ${age ?? '?'} ms after it was ${pastTense[known?.writtenBy ?? 'create']}`,
    );
  }
}

/**
 * Reads deleted items until each is gone (its read answers 404; or, without a
 * read, no page lists it) or the settle window has passed; the reference
 * model fails one still shown once the window has passed (`write-kept`).
 */
export async function readGone(api: ContractSession, access: ResourceAccess, ids: readonly ItemId[]): Promise<void> {
  const { resource, read, list } = access;
  let shown = [...ids];
  await api.eventually(`${countOf(resource, ids.length)} gone`, async () => {
    const still: ItemId[] = [];
    if (read) {
      for (const id of shown) {
        const response = await api.call(read.operation, { path: itemPath(api, read, id) });
        if (response.status !== 404 && !response.findings.some((found) => fails(found, api.settings.strict)))
          still.push(id);
      }
    } else if (list) {
      const queries = shown.flatMap((id) => pagesFor(api, list, api.model.item(resource, id)));
      const pages = await listPages(api, list, queries);
      still.push(...shown.filter((id) => pages.some((page) => page.ids.has(idText(id)))));
    }
    shown = still;
    return shown.length === 0 ? true : undefined;
  });
}

/** Whether a page of items holds an item with this id. */
export function holds(resource: Resource, response: Parameters<typeof itemsOf>[1], id: ItemId): boolean {
  return itemsOf(resource, response).some((item) => sameId(item.id, id));
}

/**
 * Items the run wrote and read back, looked for in the largest page of their
 * list filtered by the values they were read back with ("lists included"):
 * asked again, with growing pauses, until each shows or the settle window
 * has passed. One still missing then from a page that holds every match,
 * while its read answers it with those values, fails `filter-complete` (kept,
 * served by id, never listed); a page a size, a page cap or the order may
 * cut proves nothing. A resource without a read was read back through its
 * list already (`readBack`).
 */
export async function listBack(api: ContractSession, access: ResourceAccess, ids: readonly ItemId[]): Promise<void> {
  const { resource, read, list } = access;
  if (!read || !list || ids.length === 0) return;
  const filters = list.filters.filter((filter) => resource.fields.includes(filter));
  const queryOf = (id: ItemId): Record<string, string> => {
    const known = api.model.item(resource, id);
    const values = known?.seen ?? known?.written ?? {};
    const query: Record<string, string> = {};
    for (const filter of filters) if (values[filter] !== undefined) query[filter] = String(values[filter]);
    return query;
  };
  // Only items read back since their write: one that was not is the read-back's to judge (a lost write).
  let missing = ids.filter((id) => {
    const known = api.model.item(resource, id);
    return known?.exists === true && (known.writtenAt === undefined || (known.seenAt ?? -1) >= known.writtenAt);
  });
  let pages = new Map<string, PageSeen>();
  await api.eventually(`${countOf(resource, missing.length)} listed`, async () => {
    pages = new Map(
      (await listPages(api, list, missing.map(queryOf))).map((page) => [stringifyJson(page.query), page]),
    );
    missing = missing.filter((id) => !pages.get(stringifyJson(queryOf(id)))?.ids.has(idText(id)));
    if (missing.length === 0) return true;
    // Waiting proves something only for an item missing from a page that holds every match.
    return missing.some((id) => pages.get(stringifyJson(queryOf(id)))?.whole) ? undefined : false;
  });
  for (const id of missing) {
    const query = queryOf(id);
    const page = pages.get(stringifyJson(query));
    const shownAs = new URLSearchParams(query).toString();
    if (!page?.whole) {
      api.unproven(
        `${resource.itemName} ${idText(id)} is not on the largest page of ${pageName(list, query)} (${page?.ids.size ?? 0} ${resource.name}), which may be cut by the page size, a page cap or the order: that it is listed cannot be proven`,
      );
      continue;
    }
    // Read once more: a state that moved while the page was listed would explain it; a 404 the model judges.
    const again = await api.call(read.operation, { path: itemPath(api, read, id) });
    const now = again.body as Record<string, unknown> | undefined;
    if (
      again.status !== 200 ||
      filters.some((filter) => query[filter] !== undefined && String(now?.[filter]) !== query[filter])
    )
      continue;
    api.verify(
      'filter-complete',
      false,
      `${resource.itemName} ${idText(id)} is missing from ${pageName(list, query)}, a page of ${page.ids.size} ${resource.name} that holds them all, ${api.settings.settleMs} ms after it was written, while ${read.operation.operationId} answers it${shownAs ? ` with ${shownAs.replaceAll('&', ' and ')}` : ''}`,
    );
  }
}
