import { type Int64, idOf, idText } from '../exact-ids.js';
import { stringifyJson } from '../../core/json/exact-json.js';
import type { ContractResponse, ContractSession } from '../contract-session.js';
import { limitFacts } from './document-facts.js';

export interface PetLike {
  /** Exact: a number when safe, a bigint beyond 2^53. */
  id: Int64;
  [field: string]: unknown;
}

/** The pets of a list response that at least carry an int64 id (the response rules report the rest). */
export function petsOf(response: ContractResponse): PetLike[] {
  if (!Array.isArray(response.body)) return [];
  return response.body.filter((item): item is PetLike => idOf(item) !== undefined);
}

/** Ids listed more than once, compared by their exact decimal text. */
export function duplicateIds(pets: readonly PetLike[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const pet of pets) {
    const id = idText(pet.id);
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  return [...duplicates];
}

/** Whether two ids are the same, by their exact decimal text. */
export function sameId(a: unknown, b: Int64): boolean {
  return (typeof a === 'number' || typeof a === 'bigint') && idText(a) === idText(b);
}

/** The largest page the document allows, unfiltered or filtered. */
export async function largestPage(api: ContractSession, query: Record<string, string> = {}): Promise<ContractResponse> {
  const { maximum } = limitFacts(api.compiled, api.operation('listPets'));
  return api.call('listPets', { query: { ...query, limit: String(maximum) } });
}

/**
 * Whether a list page holds every pet its query matches. It does when it holds
 * fewer pets than `limit` asked for, unless the deployment caps its pages at
 * that very size: that is ruled out once some answer of this run held more.
 */
export function pageIsWhole(api: ContractSession, pets: readonly unknown[], limit: number): boolean {
  return pets.length < limit && pets.length < api.largestPageSeen();
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
export function echoMismatches(sent: Record<string, unknown>, received: unknown): string[] {
  const body = (typeof received === 'object' && received !== null ? received : {}) as Record<string, unknown>;
  return Object.entries(sent)
    .filter(([field, value]) => body[field] === undefined || stringifyJson(body[field]) !== stringifyJson(value))
    .map(([field, value]) => `'${field}': sent ${shown(value)}, got ${shown(body[field])}`);
}
