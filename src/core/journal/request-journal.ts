import { redactHeaders, redactUrl } from '../http/redact-credentials.js';

/** What the pipeline hands the journal after each exchange. */
export interface Exchange {
  id: string;
  /** Epoch milliseconds when the request arrived. */
  startedAt: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body as sent (Content-Encoding undone when it could be). */
  body: Uint8Array | undefined;
  status: number;
  responseBody: Uint8Array | undefined;
  durationMs: number;
  /** A call of the admin API (not of the animals API). */
  admin: boolean;
  /** Set when the response was a network fault injected on purpose. */
  fault?: string;
}

/** One entry as read: credentials redacted (headers and query values, see redact-credentials.ts), bodies as text (or base64 when they are not UTF-8). */
export interface JournalEntry {
  id: string;
  time: string;
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
  bodyEncoding?: 'base64';
  bodyTruncated?: boolean;
  status: number;
  responseBody?: string;
  responseBodyEncoding?: 'base64';
  responseBodyTruncated?: boolean;
  durationMs: number;
  admin?: boolean;
  fault?: string;
}

interface Kept {
  exchange: Exchange;
  bodyTruncated: boolean;
  responseBodyTruncated: boolean;
}

function cut(bytes: Uint8Array | undefined, limit: number): [Uint8Array | undefined, boolean] {
  if (bytes === undefined || bytes.length <= limit) return [bytes, false];
  // A copy, so that the journal never holds on to the rest of a large body.
  return [bytes.slice(0, limit), true];
}

/** Text when the bytes are UTF-8 (a character cut at the end is left out), base64 otherwise. */
function readable(bytes: Uint8Array): { text: string; base64: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true }), base64: false };
  } catch {
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { text: btoa(binary), base64: true };
  }
}

/**
 * The last `capacity` exchanges of one session, oldest first. It never grows
 * beyond its capacity (the oldest entry makes room, and `dropped` counts
 * how many did), and keeps at most `bodyLimit` bytes of each body. Secrets
 * are redacted and bodies decoded when someone reads it, not on every request.
 */
export class RequestJournal {
  readonly capacity: number;
  readonly bodyLimit: number;
  #entries: Kept[] = [];
  #start = 0;
  #dropped = 0;

  constructor(capacity = 500, bodyLimit = 16 * 1024) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError('the journal capacity must be at least 1');
    }
    this.capacity = capacity;
    this.bodyLimit = bodyLimit;
  }

  record(exchange: Exchange): void {
    const [body, bodyTruncated] = cut(exchange.body, this.bodyLimit);
    const [responseBody, responseBodyTruncated] = cut(exchange.responseBody, this.bodyLimit);
    const kept: Kept = { exchange: { ...exchange, body, responseBody }, bodyTruncated, responseBodyTruncated };
    if (this.#entries.length < this.capacity) {
      this.#entries.push(kept);
      return;
    }
    this.#entries[this.#start] = kept;
    this.#start = (this.#start + 1) % this.capacity;
    this.#dropped++;
  }

  /** The entries, oldest first, redacted and decoded. */
  list(): JournalEntry[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)].map(toEntry);
  }

  get size(): number {
    return this.#entries.length;
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

function toEntry({ exchange, bodyTruncated, responseBodyTruncated }: Kept): JournalEntry {
  const entry: JournalEntry = {
    id: exchange.id,
    time: new Date(exchange.startedAt).toISOString(),
    method: exchange.method,
    url: redactUrl(exchange.url),
    headers: redactHeaders(exchange.headers),
    status: exchange.status,
    durationMs: Math.round(exchange.durationMs * 100) / 100,
  };
  if (exchange.body !== undefined && exchange.body.length > 0) {
    const { text, base64 } = readable(exchange.body);
    entry.body = text;
    if (base64) entry.bodyEncoding = 'base64';
    if (bodyTruncated) entry.bodyTruncated = true;
  }
  if (exchange.responseBody !== undefined && exchange.responseBody.length > 0) {
    const { text, base64 } = readable(exchange.responseBody);
    entry.responseBody = text;
    if (base64) entry.responseBodyEncoding = 'base64';
    if (responseBodyTruncated) entry.responseBodyTruncated = true;
  }
  if (exchange.admin) entry.admin = true;
  if (exchange.fault !== undefined) entry.fault = exchange.fault;
  return entry;
}
