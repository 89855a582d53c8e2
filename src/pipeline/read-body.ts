import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';

export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<Buffer | undefined>;

/**
 * Reads the raw body, whatever its media type, up to `limit` bytes (a larger
 * one is refused with 413 before it is buffered). Gzip and deflate bodies are
 * inflated. Parsing waits until the client is authenticated.
 */
export function createBodyReader(limit: number): BodyReader {
  const parser = express.raw({ type: () => true, limit, inflate: true });
  return (req, res) =>
    new Promise((resolve, reject) => {
      parser(req as express.Request, res as express.Response, (error?: unknown) => {
        if (error) reject(error);
        else {
          const body = (req as express.Request).body as unknown;
          resolve(Buffer.isBuffer(body) ? body : undefined);
        }
      });
    });
}
