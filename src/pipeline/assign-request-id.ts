import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const saneId = /^[\w.:-]{1,128}$/;

/** Echoes a sane `X-Request-Id` (or makes one up) on the response, for logs and the journal. */
export function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && saneId.test(sent) ? sent : randomUUID();
  // `req.id` is the field pino-http logs, typed by its module augmentation.
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
