import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { inflatesBeyond, invalidEncoding, unsupportedEncoding, type Inflate } from '../core/http/inflate.js';

const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Undoes gzip, deflate and brotli with zlib, never producing more than the
 * limit (then `413`). Each piece of output is counted as it comes, and handed
 * to `take` (a shared budget) before it is kept, so that a body stops
 * inflating the moment either says so, holding no more than it was allowed.
 */
export const inflateWithZlib: Inflate = (encoding, bytes, limit, take) => {
  const decoder = decoders[encoding];
  if (!decoder) return Promise.reject(unsupportedEncoding(encoding, Object.keys(decoders)));
  return new Promise((resolve, reject) => {
    const stream = decoder();
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: unknown): void => {
      stream.off('data', onData);
      stream.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop(inflatesBeyond(limit));
        return;
      }
      if (take) {
        try {
          take(chunk.length);
        } catch (error) {
          stop(error);
          return;
        }
      }
      chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.on('error', () => reject(invalidEncoding(encoding)));
    stream.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    stream.end(bytes);
  });
};
