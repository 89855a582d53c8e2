import type { IncomingHttpHeaders } from 'node:http';

export interface JournalEntry {
  id: string;
  time: string;
  method: string;
  url: string;
  /** As recorded: the request's own headers. `list()` gives them redacted. */
  headers: IncomingHttpHeaders;
  /** The request body as text (cut at `bodyLimit` characters, with `bodyTruncated` set). */
  body?: string;
  bodyTruncated?: boolean;
  status: number;
  durationMs: number;
}

/** Headers whose values are secrets: the journal keeps that they were sent, not what they held. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

/** `Bearer abc` -> `Bearer [redacted]`; any other secret header -> `[redacted]`. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const redacted: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (!secretHeaders.has(name)) {
      redacted[name] = value;
      continue;
    }
    const scheme = typeof value === 'string' ? /^(\w+)\s/.exec(value)?.[1] : undefined;
    redacted[name] = name === 'authorization' && scheme ? `${scheme} [redacted]` : '[redacted]';
  }
  return redacted;
}

/**
 * The last `capacity` requests the mock answered, oldest first, with secrets
 * redacted. It never grows beyond its capacity: the oldest entry makes room,
 * and `dropped` counts how many did.
 */
export class RequestJournal {
  readonly capacity: number;
  readonly bodyLimit: number;
  #entries: JournalEntry[] = [];
  #start = 0;
  #dropped = 0;

  constructor(capacity = 500, bodyLimit = 16 * 1024) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError('the journal capacity must be at least 1');
    this.capacity = capacity;
    this.bodyLimit = bodyLimit;
  }

  record(entry: JournalEntry): void {
    if (entry.body !== undefined && entry.body.length > this.bodyLimit) {
      entry = { ...entry, body: entry.body.slice(0, this.bodyLimit), bodyTruncated: true };
    }
    if (this.#entries.length < this.capacity) {
      this.#entries.push(entry);
      return;
    }
    this.#entries[this.#start] = entry;
    this.#start = (this.#start + 1) % this.capacity;
    this.#dropped++;
  }

  /**
   * The entries, oldest first, with their secret headers redacted. Redaction
   * happens here, when someone reads the journal, rather than on every request.
   */
  list(): JournalEntry[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)].map((entry) => ({
      ...entry,
      headers: redactHeaders(entry.headers),
    }));
  }

  get dropped(): number {
    return this.#dropped;
  }

  clear(): number {
    const cleared = this.#entries.length;
    this.#entries = [];
    this.#start = 0;
    this.#dropped = 0;
    return cleared;
  }
}
