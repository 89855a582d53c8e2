import type { IncomingMessage } from 'node:http';
import { HttpError } from '../core/errors/http-error.js';
import type { BodyReader } from '../core/http/plain-http.js';
import { tooLarge } from '../core/pipeline/read-body.js';

/**
 * Reads a Node request's body up to `limit` bytes. A Content-Length above the
 * limit is refused before a byte is read; a body that grows beyond it is
 * refused as soon as it does, and the rest is drained, not kept.
 */
export function readNodeBody(req: IncomingMessage): BodyReader {
  return (limit) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > limit) {
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (error: HttpError | undefined): void => {
        if (settled) return;
        settled = true;
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('aborted', onAborted);
        if (error) {
          req.resume();
          reject(error);
        } else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) finish(tooLarge(limit));
        else chunks.push(chunk);
      };
      const onEnd = (): void => {
        if (declared !== undefined && Number(declared) !== size) {
          finish(new HttpError('request_aborted', 'the body is shorter or longer than its Content-Length'));
        } else finish(undefined);
      };
      const onAborted = (): void => finish(new HttpError('request_aborted', 'the client stopped sending the body'));
      const onError = (): void => onAborted();
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('aborted', onAborted);
    });
}
