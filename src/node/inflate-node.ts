import { brotliDecompress, gunzip, inflate, type InputType } from 'node:zlib';
import { HttpError } from '../core/errors/http-error.js';
import { invalidEncoding, unsupportedEncoding, type Inflate } from '../core/http/inflate.js';

type Decompress = (
  buffer: InputType,
  options: { maxOutputLength: number },
  done: (error: Error | null, result: Buffer) => void,
) => void;

const decoders: Record<string, Decompress> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflate,
  br: brotliDecompress,
};

/** Undoes gzip, deflate and brotli with zlib, never producing more than the limit (then `413`). */
export const inflateWithZlib: Inflate = (encoding, bytes, limit) => {
  const decode = decoders[encoding];
  if (!decode) return Promise.reject(unsupportedEncoding(encoding, Object.keys(decoders)));
  return new Promise((resolve, reject) => {
    decode(bytes, { maxOutputLength: limit }, (error, result) => {
      if (!error) resolve(result);
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        reject(new HttpError('payload_too_large', `the body inflates beyond the limit of ${limit} bytes`));
      } else reject(invalidEncoding(encoding));
    });
  });
};
