import { type Int64, int64Max, int64Min, isInt64, normaliseInt64 } from '../core/json/exact-json.js';

export type { Int64 };

/**
 * The exact decimal text of an id as the deployment wrote it. Ids are compared
 * by this text, never as JavaScript numbers (which round beyond 2^53).
 */
export function idText(id: Int64): string {
  return String(id);
}

/** The `id` of a parsed Pet, when it is an int64 in its exact form. */
export function idOf(value: unknown): Int64 | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return isInt64(id) ? id : undefined;
}

const spreads = [1_000_000_007n, 987_654_321_001n, 4_611_686_018_427_387_903n];

/**
 * Ids that almost surely do not exist, within int64: far above the highest id
 * seen (or, when that is close to 2^63-1, far below the lowest), never one seen.
 * A deployment that answers 200 for all of them answers 200 for unknown ids.
 */
export function unknownIdCandidates(knownIds: Iterable<Int64>): Int64[] {
  const known = [...knownIds].map((id) => BigInt(id));
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
