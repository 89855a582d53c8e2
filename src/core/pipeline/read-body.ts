import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { HttpError } from '../errors/http-error.js';

export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<Buffer | undefined>;

/**
 * Reads the raw body, whatever its media type, up to `limit` bytes, sent and
 * inflated (a larger one is refused with 413 before it is buffered). Gzip,
 * deflate and brotli bodies are inflated. Parsing waits until the client is
 * authenticated.
 */
export function createBodyReader(limit: number): BodyReader {
  const parser = express.raw({ type: () => true, limit, inflate: true });
  return (req, res) => {
    // Most requests (every GET) carry no body: no need to go through body-parser for them.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      // body-parser checks Content-Length only for bodies without a Content-Encoding; the limit is on the wire too.
      const declared = Number(req.headers['content-length']);
      if (declared > limit) {
        reject(new HttpError('payload_too_large', `the body is larger than the limit of ${limit} bytes`));
        return;
      }
      parser(req as express.Request, res as express.Response, (error?: unknown) => {
        if (error) reject(error);
        else {
          const body = (req as express.Request).body as unknown;
          resolve(Buffer.isBuffer(body) ? body : undefined);
        }
      });
    });
  };
}
