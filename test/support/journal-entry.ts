import type { Exchange } from '../../src/core/journal/request-journal.js';

/** The `n`th journal entry of a test: a GET of the pet list, its fields overridden where a test needs other ones. */
export function journalEntry(n: number, overrides: Partial<Exchange> = {}): Exchange {
  return {
    id: `req-${n}`,
    startedAt: Date.UTC(2030, 0, 1, 0, 0, n),
    method: 'GET',
    url: `/v1/pets?n=${n}`,
    headers: {},
    body: undefined,
    status: 200,
    responseBody: undefined,
    durationMs: 1,
    admin: false,
    ...overrides,
  };
}
