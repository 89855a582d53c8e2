import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestJournal } from '../journal/request-journal.js';

/** Records every request of the API in the journal once its response has gone out. */
export function createRequestRecorder(journal: RequestJournal) {
  return function recordRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    res.on('finish', () => {
      const raw = (req as { body?: unknown }).body;
      const body = Buffer.isBuffer(raw) && raw.length > 0 ? raw.toString('utf8') : undefined;
      journal.record({
        id: String(req.id ?? ''),
        time: new Date().toISOString(),
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        ...(body === undefined ? {} : { body }),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      });
    });
  };
}
