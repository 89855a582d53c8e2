import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (its `X-Request-Id`), set by `assignRequestId` for the log and the journal. */
    id?: string;
  }
}

const saneId = /^[\w.:-]{1,128}$/;

/** Echoes a sane `X-Request-Id` (or makes one up) on the response, for logs and the journal. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && saneId.test(sent) ? sent : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
}
