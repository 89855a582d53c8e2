import { type Int64, int64Max, int64Min, isInt64, normaliseInt64 } from '../core/json/exact-json.js';
import type { Resource } from '../core/model/describe-api.js';

export type { Int64 };

/** An item's id as the deployment wrote it: an int64, exact, or a text (a resource whose id is a string). */
export type ItemId = Int64 | string;

/**
 * The exact decimal text of an id as the deployment wrote it. Ids are compared
 * by this text, never as JavaScript numbers (which round beyond 2^53).
 */
export function idText(id: ItemId): string {
  return String(id);
}

/** Where a resource's items keep their id, and its JSON type. */
export type IdShape = Pick<Resource, 'idField' | 'idType'>;

/**
 * The id a parsed item carries in its resource's id field, when it has the
 * id's type: an int64 in its exact form (never `"7"` or `1.0`), or a text.
 */
export function idOf(value: unknown, shape: IdShape): ItemId | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = Object.hasOwn(value, shape.idField) ? (value as Record<string, unknown>)[shape.idField] : undefined;
  if (shape.idType === 'string') return typeof id === 'string' ? id : undefined;
  return isInt64(id) ? id : undefined;
}

const spreads = [1_000_000_007n, 987_654_321_001n, 4_611_686_018_427_387_903n];

/**
 * Ids that almost surely do not exist, within int64: far above the highest id
 * seen (or, when that is close to 2^63-1, far below the lowest), never one seen.
 * A deployment that answers 200 for all of them answers 200 for unknown ids.
 */
export function unknownIdCandidates(knownIds: Iterable<ItemId>): Int64[] {
  const known = [...knownIds].filter((id) => typeof id !== 'string').map((id) => BigInt(id));
  const seen = new Set(known.map(String));
  const highest = known.reduce((a, b) => (b > a ? b : a), 0n);
  const lowest = known.reduce((a, b) => (b < a ? b : a), 0n);
  const candidates: bigint[] = [];
  for (const spread of spreads) {
    if (highest + spread <= int64Max) candidates.push(highest + spread);
    else if (lowest - spread >= int64Min) candidates.push(lowest - spread);
  }
  if (highest < int64Max - 4242n) candidates.push(int64Max - 4242n);
  return [...new Set(candidates.filter((id) => !seen.has(String(id))).map(String))].map((text) =>
    normaliseInt64(BigInt(text)),
  );
}

/** Texts no item of a string-keyed resource has (none of those seen), far from any a service hands out. */
export function unknownTextIds(knownIds: Iterable<ItemId>, prefix: string): string[] {
  const seen = new Set([...knownIds].map(String));
  return ['0', '1', '2'].map((n) => `${prefix}unknown-${n}`).filter((id) => !seen.has(id));
}
