import type { IncomingMessage } from 'node:http';
import { HttpError } from '../core/errors/http-error.js';
import type { BodyReader } from '../core/http/plain-http.js';
import { tooLarge } from '../core/pipeline/read-body.js';

/**
 * Reads a Node request's body up to `limit` bytes. A Content-Length above the
 * limit is refused before a byte is read; a body that grows beyond it is
 * refused as soon as it does, and the rest is drained, not kept.
 *
 * Three listeners (one for both ways a client stops sending), left on the
 * request once the body is read or refused, when each does nothing: removing
 * them cost four calls a body, and the request is gone with its answer.
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
      let chunks: Buffer[] | undefined = [];
      let size = 0;
      const refuse = (error: HttpError): void => {
        if (!chunks) return;
        chunks = undefined;
        req.resume();
        reject(error);
      };
      req.on('data', (chunk: Buffer): void => {
        if (!chunks) return;
        size += chunk.length;
        if (size > limit) refuse(tooLarge(limit));
        else chunks.push(chunk);
      });
      req.on('end', (): void => {
        if (!chunks) return;
        if (declared !== undefined && Number(declared) !== size) {
          refuse(new HttpError('request_aborted', 'the body is shorter or longer than its Content-Length'));
          return;
        }
        const read = chunks;
        chunks = undefined;
        resolve(read.length === 1 ? (read[0] as Buffer) : Buffer.concat(read, size));
      });
      // A client that stops sending: the request is aborted, or its connection fails.
      const stopped = (): void => refuse(new HttpError('request_aborted', 'the client stopped sending the body'));
      req.on('aborted', stopped);
      req.on('error', stopped);
    });
}
