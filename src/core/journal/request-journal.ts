import Denque from 'denque';
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
  fault?: string | undefined;
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
  /** As recorded (the object given, unless a body was cut: then a copy with the bodies as kept). */
  exchange: Exchange;
  bodyTruncated: boolean;
  responseBodyTruncated: boolean;
  /** What the entry holds, in bytes (see `entryBytes`): what it costs the mock-wide budget. */
  bytes: number;
  /** The journal it is in, until it is dropped (then `undefined`): the budget evicts through it. */
  journal: RequestJournal | undefined;
}

/** What an entry holds beside its URL, headers and bodies: its object, id, times, status. */
const entryOverhead = 256;

function headerBytes(headers: Exchange['headers']): number {
  let total = 0;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    total += name.length + 4;
    if (Array.isArray(value)) for (const each of value) total += each.length + 2;
    else total += value.length;
  }
  return total;
}

/**
 * The bytes an entry holds: its URL and headers as sent (a URL may be 14 KB,
 * the headers 16 KiB), its bodies as kept (16 KiB each at most), and a fixed
 * overhead. Characters count as bytes: a Node header is one byte a character.
 */
function entryBytes(exchange: Exchange, body: Uint8Array | undefined, responseBody: Uint8Array | undefined): number {
  return (
    entryOverhead +
    exchange.url.length +
    exchange.method.length +
    exchange.id.length +
    headerBytes(exchange.headers) +
    (body?.length ?? 0) +
    (responseBody?.length ?? 0)
  );
}

/** The default bound of every journal of a mock together, and of what one read returns. */
export const defaultMaxJournalBytes = 64 * 1024 * 1024;
export const defaultMaxJournalReadBytes = 2 * 1024 * 1024;

export interface JournalBudgetOptions {
  /** The bytes every journal holds together at most; beyond, the oldest entries of the whole mock go first. */
  maxBytes?: number;
  /** The most one read of a journal returns, as JSON; beyond, the oldest entries are left out of it, and counted. */
  maxReadBytes?: number;
}

/**
 * What every journal of a mock holds together: at most `maxBytes` (what
 * their entries hold, see `entryBytes`), so that many sessions cannot hold
 * many times one journal's worth (100 sessions once held 2.9 GB). Beyond it
 * the oldest entry of the whole mock makes room, whichever session it is in.
 * Also the most one read returns, `maxReadBytes`.
 */
export class JournalBudget {
  readonly maxBytes: number;
  readonly maxReadBytes: number;
  #used = 0;
  #entries = 0;
  /**
   * Every entry recorded, oldest first; entries dropped by their journal stay
   * until they reach the front (or a compaction). A queue that reuses its
   * slots: arrays made anew every few hundred requests lived long enough for
   * the collector to move them into the old generation, whose collections
   * cost the proxy microseconds a request.
   */
  #order = new Denque<Kept>();

  constructor(options: JournalBudgetOptions = {}) {
    this.maxBytes = options.maxBytes ?? defaultMaxJournalBytes;
    this.maxReadBytes = options.maxReadBytes ?? defaultMaxJournalReadBytes;
    for (const [name, value] of Object.entries({ maxBytes: this.maxBytes, maxReadBytes: this.maxReadBytes })) {
      if (!(value >= 1)) throw new RangeError(`the journal's ${name} must be at least 1`);
    }
  }

  /** The bytes the journals hold now. */
  get usedBytes(): number {
    return this.#used;
  }

  /** The entries the journals hold now. */
  get entries(): number {
    return this.#entries;
  }

  /** Counts a new entry, then makes room: the oldest entries of the mock go until the journals fit (the new one last). */
  add(kept: Kept): void {
    this.#order.push(kept);
    this.#used += kept.bytes;
    this.#entries++;
    while (this.#used > this.maxBytes) {
      const oldest = this.#order.shift();
      if (!oldest) break;
      // Its journal drops it (counting it), which calls `release` below.
      oldest.journal?.dropOldestFor(oldest);
    }
    this.#compact();
  }

  /** An entry its journal dropped (made room, cleared): its bytes are free. */
  release(kept: Kept): void {
    if (!kept.journal) return;
    kept.journal = undefined;
    this.#used -= kept.bytes;
    this.#entries--;
    this.#compact();
  }

  /**
   * Lets go of the dropped entries at the front of the order at once (one
   * held there would keep its exchange alive into the old generation), and
   * of those behind held ones once they outnumber the held ones, so that the
   * order stays in proportion.
   */
  #compact(): void {
    const order = this.#order;
    while (order.length > 0 && (order.peekFront() as Kept).journal === undefined) order.shift();
    const dead = order.length - this.#entries;
    if (dead > 1024 && dead > this.#entries) {
      this.#order = new Denque(order.toArray().filter((kept) => kept.journal !== undefined));
    }
  }
}

/** One read of a journal: the newest entries that fit its limit, oldest first, and how many older ones it left out. */
export interface JournalRead {
  requests: JournalEntry[];
  /** The oldest entries left out of this read, to stay within `maxReadBytes`. */
  omitted: number;
  maxReadBytes: number;
}

/** The bytes kept of a body: all of it, or a copy of its first `limit` bytes (never a view of the rest). */
function cut(bytes: Uint8Array | undefined, limit: number): Uint8Array | undefined {
  return bytes === undefined || bytes.length <= limit ? bytes : bytes.slice(0, limit);
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
 * how many did), keeps at most `bodyLimit` bytes of each body, and shares
 * the mock's budget with every other session's journal (`JournalBudget`:
 * the oldest entries of the mock make room beyond it, counted in `dropped`
 * too). Secrets are redacted and bodies decoded when someone reads it, not
 * on every request; `read()` returns at most the budget's `maxReadBytes`.
 */
export class RequestJournal {
  readonly capacity: number;
  readonly bodyLimit: number;
  /** The bound every journal of the mock shares (its own, when made alone). */
  readonly budget: JournalBudget;
  /** The entries held, oldest first, in a queue that reuses its slots (see `JournalBudget.#order`). */
  #entries = new Denque<Kept>();
  #dropped = 0;

  constructor(capacity = 500, bodyLimit = 16 * 1024, budget: JournalBudget = new JournalBudget()) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError('the journal capacity must be at least 1');
    }
    this.capacity = capacity;
    this.bodyLimit = bodyLimit;
    this.budget = budget;
  }

  /**
   * Keeps `exchange` itself, not a copy, unless a body is longer than
   * `bodyLimit` (then a copy with the bodies cut, so that the rest is not
   * held): the caller hands it over and never changes it.
   */
  record(exchange: Exchange): void {
    const body = cut(exchange.body, this.bodyLimit);
    const responseBody = cut(exchange.responseBody, this.bodyLimit);
    const bodyTruncated = body !== exchange.body;
    const responseBodyTruncated = responseBody !== exchange.responseBody;
    const kept: Kept = {
      exchange: bodyTruncated || responseBodyTruncated ? { ...exchange, body, responseBody } : exchange,
      bodyTruncated,
      responseBodyTruncated,
      bytes: entryBytes(exchange, body, responseBody),
      journal: this,
    };
    if (this.size >= this.capacity) this.#dropOldest();
    this.#entries.push(kept);
    this.budget.add(kept);
  }

  /** For the budget: drops the oldest entry, which is `kept` (the mock's oldest is its journal's oldest). */
  dropOldestFor(kept: Kept): void {
    if (this.#entries.peekFront() === kept) this.#dropOldest();
  }

  #dropOldest(): void {
    const oldest = this.#entries.shift();
    if (!oldest) return;
    this.#dropped++;
    this.budget.release(oldest);
  }

  /** The entries, oldest first, redacted and decoded. */
  list(): JournalEntry[] {
    return this.#entries.toArray().map(toJournalEntry);
  }

  /**
   * The newest entries whose JSON fits the budget's `maxReadBytes`, oldest
   * first, and how many older ones were left out: a journal of 500 entries
   * of 48 KB each would otherwise be a 23 MB answer, which the dashboard
   * asks for every second. The newest entry is returned even when it alone
   * is larger.
   */
  read(): JournalRead {
    const { maxReadBytes } = this.budget;
    const requests: JournalEntry[] = [];
    let bytes = 2;
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      const entry = toJournalEntry(this.#entries.peekAt(index) as Kept);
      const size = JSON.stringify(entry).length + 1;
      if (requests.length > 0 && bytes + size > maxReadBytes) break;
      bytes += size;
      requests.push(entry);
    }
    return { requests: requests.reverse(), omitted: this.size - requests.length, maxReadBytes };
  }

  get size(): number {
    return this.#entries.length;
  }

  get dropped(): number {
    return this.#dropped;
  }

  clear(): number {
    const cleared = this.size;
    for (const kept of this.#entries.toArray()) this.budget.release(kept);
    this.#entries = new Denque<Kept>();
    this.#dropped = 0;
    return cleared;
  }
}

/**
 * An exchange as kept (its bodies cut at the journal's limit, and whether
 * they were) as a reader sees it: credentials redacted, bodies as text or
 * base64. Every journal shows its entries through it, the memory one and
 * the one a shared store keeps.
 */
export function toJournalEntry({
  exchange,
  bodyTruncated,
  responseBodyTruncated,
}: Pick<Kept, 'exchange' | 'bodyTruncated' | 'responseBodyTruncated'>): JournalEntry {
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
