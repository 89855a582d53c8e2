import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { stringifyJson } from '../../core/json/exact-json.js';
import type { ContractResponse, ContractSession } from '../contract-session.js';
import { idOf, idText, type ItemId, unknownIdCandidates, unknownTextIds } from '../exact-ids.js';

/** An item of a list answer that carries an id of its resource's type (the response rules report the rest). */
export interface ListedItem {
  /** Exact: a number when safe, a bigint beyond 2^53; or a text. */
  id: ItemId;
  fields: Record<string, unknown>;
}

/** The items of a list response that carry an id. */
export function itemsOf(resource: Resource, response: Pick<ContractResponse, 'body'>): ListedItem[] {
  if (!Array.isArray(response.body)) return [];
  return response.body.flatMap((item) => {
    const id = idOf(item, resource);
    return id === undefined ? [] : [{ id, fields: item as Record<string, unknown> }];
  });
}

/** Whether two ids are the same, by their exact text. */
export function sameId(a: unknown, b: ItemId): boolean {
  return (typeof a === 'number' || typeof a === 'bigint' || typeof a === 'string') && String(a) === idText(b);
}

/** `Pet`: the item schema's name, or the item's. */
export function schemaName(resource: Resource): string {
  const name = resource.itemSchema.startsWith('/') ? resource.itemSchema.split('/').at(-1) : undefined;
  return name ?? resource.itemName;
}

/** "1 pet", "20 pets": a count of a resource's items, in its own words. */
export function countOf(resource: Resource, count: number): string {
  return `${count} ${count === 1 ? resource.itemName : resource.name}`;
}

/** The largest page size a list operation allows (its page parameter's maximum), if it names one. */
export function largestSize(list: OperationSemantics): number | undefined {
  return list.page?.maximum;
}

/** The largest page the document allows, unfiltered or filtered as asked. */
export function largestPage(
  api: ContractSession,
  list: OperationSemantics,
  query: Record<string, string> = {},
): Promise<ContractResponse> {
  const size = largestSize(list);
  const { page } = list;
  return api.call(list.operation, {
    query: page && size !== undefined ? { ...query, [page.name]: String(size) } : query,
  });
}

/**
 * Whether a list page holds every item its query matches. It does when it
 * holds fewer items than the page size asked for, unless the deployment caps
 * its pages at that very size: that is ruled out once some answer of this run
 * held more.
 */
export function pageIsWhole(
  api: ContractSession,
  resource: Resource,
  items: readonly unknown[],
  size: number | undefined,
): boolean {
  return (size === undefined || items.length < size) && items.length < api.largestPageSeen(resource);
}

/** Ids no item of the resource has, far from every id known. */
export function unknownIds(api: ContractSession, resource: Resource, known: Iterable<ItemId>): ItemId[] {
  return resource.idType === 'string' ? unknownTextIds(known, api.settings.namePrefix) : unknownIdCandidates(known);
}

/** The ids the run knows of a resource: listed, read or written (not those only answered 404). */
export function knownIds(api: ContractSession, resource: Resource): ItemId[] {
  return api.model.items(resource).flatMap((item) => {
    if (!item.exists && item.writtenBy === undefined) return [];
    const id = idOf({ [resource.idField]: item.id }, resource);
    return id === undefined ? [] : [id];
  });
}

/**
 * A value as JSON, exact, shortened for a message; combining marks, joiners,
 * direction marks and other invisible characters written as \u escapes, so that
 * two texts that look alike show how they differ.
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = stringifyJson(value).replace(
    /[\p{M}\p{C}]/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return text.length > 80 ? `${text.slice(0, 60)}… (${text.length} characters)` : text;
}

/** Fields of `sent` whose value in `received` differs, compared as exact JSON text. */
export function echoMismatches(
  sent: Record<string, unknown>,
  received: unknown,
): Array<{ field: string; text: string }> {
  const body = (typeof received === 'object' && received !== null ? received : {}) as Record<string, unknown>;
  return Object.entries(sent)
    .filter(([field, value]) => body[field] === undefined || stringifyJson(body[field]) !== stringifyJson(value))
    .map(([field, value]) => ({ field, text: `'${field}': sent ${shown(value)}, got ${shown(body[field])}` }));
}
