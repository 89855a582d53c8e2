/** Hands out numbers that are never given twice, so that a revision names one content across all stores. */
export interface RevisionCounter {
  next(): number;
}

export function createRevisionCounter(): RevisionCounter {
  let last = 0;
  return { next: () => ++last };
}
