import type { Exchange } from '../core/journal/request-journal.js';

/** One journal entry as the engine keeps it: the exchange, bodies cut at the body limit, and whether they were. */
export interface JournalRecord {
  /** The stream entry's id (`<ms>-<n>`), which orders the journal. */
  streamId: string;
  exchange: Exchange;
  bodyTruncated: boolean;
  responseBodyTruncated: boolean;
}

/** What an entry holds beside its URL, headers and bodies (as request-journal.ts counts it). */
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

function cut(bytes: Uint8Array | undefined, limit: number): Uint8Array | undefined {
  return bytes === undefined || bytes.length <= limit ? bytes : bytes.slice(0, limit);
}

/**
 * An exchange as the fields of a stream entry, exactly: the bodies as bytes
 * (cut at `bodyLimit`, as the memory journal keeps them), the headers as
 * JSON (strings), numbers as their shortest text. `bytes` is what the entry
 * costs the mock's journal budget, counted as the memory journal counts it.
 */
export function journalFields(
  exchange: Exchange,
  bodyLimit: number,
): { fields: Array<string | Buffer>; bytes: number } {
  const body = cut(exchange.body, bodyLimit);
  const responseBody = cut(exchange.responseBody, bodyLimit);
  const fields: Array<string | Buffer> = [
    'i',
    exchange.id,
    't',
    String(exchange.startedAt),
    'm',
    exchange.method,
    'u',
    exchange.url,
    'h',
    JSON.stringify(exchange.headers),
    's',
    String(exchange.status),
    'd',
    String(exchange.durationMs),
  ];
  if (body !== undefined) fields.push('b', Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  if (body !== exchange.body) fields.push('bt', '1');
  if (responseBody !== undefined) {
    fields.push('r', Buffer.from(responseBody.buffer, responseBody.byteOffset, responseBody.byteLength));
  }
  if (responseBody !== exchange.responseBody) fields.push('rt', '1');
  if (exchange.admin) fields.push('a', '1');
  if (exchange.fault !== undefined) fields.push('f', exchange.fault);
  const bytes =
    entryOverhead +
    exchange.url.length +
    exchange.method.length +
    exchange.id.length +
    headerBytes(exchange.headers) +
    (body?.length ?? 0) +
    (responseBody?.length ?? 0);
  return { fields, bytes };
}

/** A stream entry read back (`[id, [field, value, …]]`, bulk strings as Buffers) as the record it was. */
export function journalRecord(entry: unknown): JournalRecord {
  const [id, pairs] = entry as [Buffer, Buffer[]];
  const values = new Map<string, Buffer>();
  for (let index = 0; index + 1 < pairs.length; index += 2) {
    values.set((pairs[index] as Buffer).toString('latin1'), pairs[index + 1] as Buffer);
  }
  const text = (field: string): string => values.get(field)?.toString('utf8') ?? '';
  const bytes = (field: string): Uint8Array | undefined => {
    const value = values.get(field);
    return value === undefined ? undefined : new Uint8Array(value);
  };
  const exchange: Exchange = {
    id: text('i'),
    startedAt: Number(text('t')),
    method: text('m'),
    url: text('u'),
    headers: JSON.parse(text('h')) as Exchange['headers'],
    body: bytes('b'),
    status: Number(text('s')),
    responseBody: bytes('r'),
    durationMs: Number(text('d')),
    admin: values.has('a'),
  };
  if (values.has('f')) exchange.fault = text('f');
  return {
    streamId: id.toString('latin1'),
    exchange,
    bodyTruncated: values.has('bt'),
    responseBodyTruncated: values.has('rt'),
  };
}
