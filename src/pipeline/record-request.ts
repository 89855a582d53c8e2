import type { NextFunction, Request, Response } from 'express';
import { redactHeaders, type RequestJournal } from '../journal/request-journal.js';

/** Records every request of the API in the journal once its response has gone out. */
export function createRequestRecorder(journal: RequestJournal) {
  return function recordRequest(req: Request, res: Response, next: NextFunction): void {
    const started = performance.now();
    res.on('finish', () => {
      const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body.toString('utf8') : undefined;
      journal.record({
        id: String(req.id ?? ''),
        time: new Date().toISOString(),
        method: req.method,
        url: req.originalUrl,
        headers: redactHeaders(req.headers),
        ...(body === undefined ? {} : { body }),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      });
    });
    next();
  };
}
