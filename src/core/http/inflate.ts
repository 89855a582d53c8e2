import { HttpError } from '../errors/http-error.js';

/**
 * Undoes one Content-Encoding, producing at most `limit` bytes. Throws
 * `HttpError`: `payload_too_large` beyond the limit, `invalid_encoding` for
 * bytes that are not valid data for the encoding, `unsupported_media_type`
 * for an encoding it does not know.
 */
export type Inflate = (encoding: string, bytes: Uint8Array, limit: number) => Promise<Uint8Array>;

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
export const inflateWithWebStreams: Inflate = async (encoding, bytes, limit) => {
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
        throw new HttpError('payload_too_large', `the body inflates beyond the limit of ${limit} bytes`);
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

export function invalidEncoding(encoding: string): HttpError {
  return new HttpError('invalid_encoding', `the body is not valid ${encoding} data for its Content-Encoding`);
}
