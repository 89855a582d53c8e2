import { HttpError } from '../errors/http-error.js';

/**
 * Undoes one Content-Encoding, producing at most `limit` bytes, and calling
 * `take` (when given) with each piece of output before keeping it: `take`
 * throws to stop the inflater (a shared budget is spent, see
 * `InflateBudget`). Throws `HttpError`: `payload_too_large` beyond the limit
 * or what `take` threw, `invalid_encoding` for bytes that are not valid data
 * for the encoding, `unsupported_media_type` for an encoding it does not know.
 */
export type Inflate = (
  encoding: string,
  bytes: Uint8Array,
  limit: number,
  take?: (bytes: number) => void,
) => Promise<Uint8Array>;

/** The default of `maxInflatedBytes`: the request bodies being inflated at once hold 64 MiB together at most. */
export const defaultMaxInflatedBytes = 64 * 1024 * 1024;

/**
 * The bytes every request body being inflated holds together, at most
 * `maxBytes`, shared by all the requests in flight: a small gzip body can
 * inflate a thousand times, so a per-request limit alone lets 200 requests
 * of 260 KB hold 200 times that limit (3.3 GB in the proxy, issue 36). Each
 * request takes its `share()` piece by piece as its body inflates, and gives
 * it back when it is answered; a piece that does not fit stops the inflater
 * with `413 payload_too_large` (and `Retry-After`), holding no more.
 */
export class InflateBudget {
  #held = 0;

  constructor(readonly maxBytes: number = defaultMaxInflatedBytes) {}

  /** Bytes held now, every request's together. */
  get held(): number {
    return this.#held;
  }

  /** One request's share, empty until its body inflates. */
  share(): InflateShare {
    return new InflateShare(this);
  }

  /** Takes `bytes` more for a share, or throws when they do not fit beside those held. */
  take(bytes: number): void {
    if (this.#held + bytes > this.maxBytes) {
      throw new HttpError(
        'payload_too_large',
        `the request bodies being inflated at once hold ${bytesText(this.#held)} of the ${bytesText(this.maxBytes)} they may hold together; this one was refused before inflating further: retry once they are answered`,
        { headers: { 'retry-after': '1' } },
      );
    }
    this.#held += bytes;
  }

  giveBack(bytes: number): void {
    this.#held -= bytes;
  }
}

function bytesText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** What one request's body holds of an `InflateBudget`, given back at once when the request is answered. */
export class InflateShare {
  #taken = 0;

  constructor(readonly budget: InflateBudget) {}

  /** Takes `bytes` more of the budget (throws `413 payload_too_large` when they do not fit); pass it to `Inflate`. */
  readonly take = (bytes: number): void => {
    this.budget.take(bytes);
    this.#taken += bytes;
  };

  /** Gives back all this request has taken. */
  giveBack(): void {
    this.budget.giveBack(this.#taken);
    this.#taken = 0;
  }
}

const webFormats: Record<string, 'gzip' | 'deflate'> = {
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
};

/**
 * The Web-standard inflater (DecompressionStream), for browsers and any
 * runtime without zlib: gzip and deflate. The Node adapter passes its own,
 * which also knows brotli.
 */
export const inflateWithWebStreams: Inflate = async (encoding, bytes, limit, take) => {
  const format = webFormats[encoding];
  if (!format) throw unsupportedEncoding(encoding, Object.keys(webFormats));
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream(format));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        throw inflatesBeyond(limit);
      }
      if (take) {
        try {
          take(value.length);
        } catch (error) {
          await reader.cancel();
          throw error;
        }
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw invalidEncoding(encoding);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
};

export function unsupportedEncoding(encoding: string, known: readonly string[]): HttpError {
  return new HttpError(
    'unsupported_media_type',
    `Content-Encoding '${encoding}' is not supported (supported: identity, ${known.join(', ')})`,
  );
}

export function inflatesBeyond(limit: number): HttpError {
  return new HttpError('payload_too_large', `the body inflates beyond the limit of ${limit} bytes`);
}

export function invalidEncoding(encoding: string): HttpError {
  return new HttpError('invalid_encoding', `the body is not valid ${encoding} data for its Content-Encoding`);
}
