import type { ContractResponse } from '../../src/contract/http-client.js';
import type { ContractSession } from './contract-session.js';
import { limitFacts } from './document-facts.js';

export interface PetLike {
  id: number;
  [field: string]: unknown;
}

/** The pets of a list response that at least carry a numeric id (the schema check reports the rest). */
export function petsOf(response: ContractResponse): PetLike[] {
  if (!Array.isArray(response.json)) return [];
  return response.json.filter(
    (item): item is PetLike => typeof item === 'object' && item !== null && typeof (item as PetLike).id === 'number',
  );
}

/** Ids listed more than once. */
export function duplicateIds(pets: readonly PetLike[]): number[] {
  const seen = new Set<number>();
  const duplicates = new Set<number>();
  for (const pet of pets) {
    if (seen.has(pet.id)) duplicates.add(pet.id);
    seen.add(pet.id);
  }
  return [...duplicates];
}

/** The largest page the document allows, unfiltered or filtered. */
export async function largestPage(api: ContractSession, query: Record<string, string> = {}): Promise<ContractResponse> {
  const { maximum } = limitFacts(api.compiled, api.operation('listPets'));
  return api.call('listPets', { query: { ...query, limit: String(maximum) } });
}

/**
 * Ids that almost surely do not exist: far above every id seen, within 2^53.
 * A deployment that answers 200 for all of them answers 200 for unknown ids.
 */
export function unknownIdCandidates(knownIds: readonly number[]): number[] {
  const highest = Math.max(0, ...knownIds);
  const candidates = [highest + 1_000_000_007, highest + 987_654_321_001, Number.MAX_SAFE_INTEGER - 4242];
  return [...new Set(candidates.filter((id) => Number.isSafeInteger(id) && id > highest))];
}

/** Fields of `sent` whose value in `received` differs. */
export function echoMismatches(sent: Record<string, unknown>, received: unknown): string[] {
  const body = (typeof received === 'object' && received !== null ? received : {}) as Record<string, unknown>;
  return Object.entries(sent)
    .filter(([field, value]) => JSON.stringify(body[field]) !== JSON.stringify(value))
    .map(
      ([field, value]) => `'${field}': sent ${JSON.stringify(value)}, got ${JSON.stringify(body[field]) ?? 'nothing'}`,
    );
}
